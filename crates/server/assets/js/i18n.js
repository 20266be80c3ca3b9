// The interface in English and Chinese: chosen from the browser's language, switchable and
// kept in this browser. `t(key, vars)` fills `{name}` places; names of games, sides,
// levels, result reasons and forbidden shapes have their own helpers.
import { pref, setPref } from './local.js';

const EN = {
  loading: 'Loading…',
  'conn.lost': 'Connection lost — reconnecting…',
  'nav.lobby': 'Lobby', 'nav.new': 'New game', 'nav.analysis': 'Analysis board', 'nav.photo': 'Photo', 'nav.camera': 'Camera', 'nav.rules': 'Rules',
  'nav.first': 'First position', 'nav.prev': 'Previous move (←)', 'nav.next': 'Next move (→)', 'nav.last': 'Last position',
  'nav.language': 'Language', 'nav.mute': 'Sound off', 'nav.unmute': 'Sound on',
  'lobby.tables': 'Tables', 'lobby.finished': 'Finished games', 'lobby.none': 'No table is being played. Start one!',
  'lobby.playAs': 'Play as {side}', 'lobby.watch': 'Watch', 'lobby.replay': 'Replay', 'lobby.download': 'Download record', 'lobby.format': 'Record format',
  'moves.count': '{n} moves', 'moves.title': 'Moves', toMove: '{side} to move', 'turn.yours': 'Your move ({side})', vs: ' vs ',
  'seat.open': 'open', 'seat.level': 'computer level', 'seat.waiting': 'waiting for a player', 'seat.invited': 'invited', 'seat.you': 'you',
  'result.wins': '{side} wins — {reason}', 'result.draw': 'Draw — {reason}', 'result.unfinished': 'Unfinished',
  'new.title': 'New game', 'new.game': 'Game:', 'new.opponent': 'Opponent:', 'new.computer': 'Computer:', 'new.secondComputer': 'Second computer:',
  'new.youPlay': 'You play:', 'new.clockLabel': 'Clock:', 'new.undo': 'Moves may be taken back', 'new.yourName': 'Your name:',
  'new.namePlaceholder': 'your name', 'new.start': 'Start', 'new.think': 'think', 'new.fixedBoard': 'fixed board',
  'new.fromPosition': 'from the photo’s position', 'new.fromPhoto': 'Starting from the position read from the photo:',
  'new.firstMover': '{side} (moves first)', 'new.random': 'random', 'new.oppComputer': 'the computer', 'new.oppLocal': 'a person on this screen',
  'new.oppInvite': 'a person elsewhere (invitation link)', 'new.oppEngines': 'computer vs computer (watch)',
  'new.noClock': 'no clock', 'new.clock': 'base + increment', 'new.min': 'min', 'new.sec': 's',
  'opp.levels': 'Levels', 'opp.papers': 'The papers’ players', 'opp.engines': 'Engines on this server', 'opp.other': 'Other players',
  'level.beginner': 'Beginner', 'level.casual': 'Casual', 'level.club': 'Club', 'level.expert': 'Expert', 'level.master': 'Master',
  'player.strong': 'Full strength (time per move)', 'player.random': 'Random moves', 'player.seed': 'Paper {n}',
  'table.notFound': 'No such table', 'table.notFoundHelp': 'The link is wrong, or the table no longer exists.', 'table.backToLobby': 'Back to the lobby',
  'table.inviteUsed': 'This invitation link has been used: the seat is taken. You are watching.',
  'table.seatRevoked': 'Your seat was given to a new invitation link. You are watching.',
  'replay.notFound': 'No such game',
  'signal.check': '{side} is in check!', 'signal.checkTurn': '{side} to move — in check', 'signal.forbiddenMarked': 'Forbidden points for black are marked (×).',
  'jiu.count': 'Pieces — black {black}, white {white}', 'jiu.placement': 'Placement: {n} / 196 points filled', 'jiu.battle': 'Battle · {n} moves without capture',
  'c6.stones': 'Stones this turn: {n} ({left} left)',
  'pick.stonesLeft': '{n} stone(s) left to place this turn', 'pick.square': 'Square! Click {n} enemy piece(s) to remove',
  'pick.jiuLand': 'Click where the piece goes (click the last point again to stop a jump chain)', 'pick.xqTarget': 'Click a highlighted point',
  'pick.forbidden': '{point} is forbidden for black: {reason}.',
  'forbidden.double-three': 'a double three', 'forbidden.double-four': 'a double four', 'forbidden.overline': 'an overline (six or more)',
  'offer.draw': '{side} offers a draw.', 'offer.undo': '{side} asks to take back a move.', 'offer.accept': 'Accept', 'offer.decline': 'Decline',
  'btn.pass': 'Pass', 'btn.undo': 'Undo', 'btn.draw': 'Offer draw', 'btn.resign': 'Resign', 'btn.resignConfirm': 'Resign this game?',
  'btn.flip': 'Flip board', 'btn.flipTitle': 'Turn the board round', 'btn.review': 'Review the game', 'btn.analyse': 'Open on the analysis board',
  'btn.analyseHere': 'Analyse from here',
  'invite.send': 'Send this link to the person who will play {side} (it works once):', 'invite.lost': 'Your opponent lost their seat?',
  'invite.lostHelp': 'A new link lets them back in; their old seat and any earlier link stop working.', 'invite.newLink': 'New link for {side}',
  'think.computer': 'Computer thinking:', 'think.depth': 'depth {n}',
  'score.even': 'even', 'score.winsIn': '{side} wins in {n}', 'eval.bar': '{side}: {p}%',
  'an.positionPlaceholder': 'position text (empty: the start position)', 'an.setup': 'Set up', 'an.takeBack': 'Take back', 'an.position': 'Position:',
  'an.think': 'Think', 'an.analyse': 'Analyse', 'an.stop': 'Stop', 'an.engine': 'Engine:', 'an.starting': 'starting…', 'an.best': 'Best move:',
  'an.playIt': 'Play it', 'an.line': 'Line', 'an.otherLines': 'Other lines', 'an.start': '(start)',
  'review.title': 'Review', 'review.progress': 'Analysing position {n} of {total}…', 'review.graph': 'Expected score of {side} move by move',
  'review.eval': 'Evaluation:', 'review.better': 'Better was', 'review.showLine': 'Show the line',
  'judge.inaccuracy': 'Inaccuracy', 'judge.mistake': 'Mistake', 'judge.blunder': 'Blunder',
  'judge.inaccuracys': 'inaccuracies', 'judge.mistakes': 'mistakes', 'judge.blunders': 'blunders',
  'photo.title': 'Read a photo of a board', 'photo.help': 'A photo of a real Gomoku, Connect6 or Jiu board (JPEG or PNG, at most 8 MiB), taken from above or at a slant.',
  'photo.lines': 'Lines:', 'photo.findSize': 'find in the photo', 'photo.readButton': 'Read the position', 'photo.choose': 'Choose a photo first.',
  'photo.tooLarge': 'The photo is larger than 8 MiB.', 'photo.reading': 'Reading the photo…', 'photo.failed': 'Upload failed: {e}',
  'photo.doubtful': 'Least certain:', 'photo.read': 'Read a {size}×{size} {game} board: {black} black, {white} white.',
  'photo.analyse': 'Open on the analysis board', 'photo.play': 'Start a game from it',
  'cam.title': 'Follow a game through the camera', 'cam.help': 'Point the phone’s or computer’s camera at a real Gomoku or Connect6 board, from above or at a slant, the whole board in view. The board read in the camera is drawn beside it, the suggested move over it, and each move is taken once the board is still. A phone needs the page over HTTPS (serve --tls-cert … --tls-key …).',
  'cam.as': 'Colour:', 'cam.mode': 'The computer:', 'cam.suggest': 'suggests moves', 'cam.play': 'plays (place its stones)', 'cam.level': 'Level:',
  'cam.start': 'Start the camera', 'cam.stop': 'Stop', 'cam.stopped': 'The camera is off.',
  'cam.insecure': 'This browser gives the camera only to pages over HTTPS or on localhost: open the page as https:// (boyi serve --tls-cert FILE --tls-key FILE).',
  'cam.noCamera': 'No camera: {e}', 'cam.denied': 'permission was refused', 'cam.settling': 'Waiting for a still board…', 'cam.noBoard': '(no board in view)',
  'cam.waiting': 'Waiting for {side}’s move.', 'cam.suggestion': 'Suggested for {side}: {move}', 'cam.place': 'Place {side} at {move}.', 'cam.over': 'Game over: {result}',
  'rules.title': 'How to play {game}',
};

const ZH = {
  loading: '加载中…',
  'conn.lost': '连接已断开，正在重连…',
  'nav.lobby': '大厅', 'nav.new': '新对局', 'nav.analysis': '分析棋盘', 'nav.photo': '拍照识棋', 'nav.camera': '摄像头', 'nav.rules': '规则',
  'nav.first': '开局', 'nav.prev': '上一步（←）', 'nav.next': '下一步（→）', 'nav.last': '终局',
  'nav.language': '语言', 'nav.mute': '关闭声音', 'nav.unmute': '打开声音',
  'lobby.tables': '对局', 'lobby.finished': '已结束的对局', 'lobby.none': '目前没有对局，来开一局吧！',
  'lobby.playAs': '执{side}', 'lobby.watch': '观战', 'lobby.replay': '复盘', 'lobby.download': '下载棋谱', 'lobby.format': '棋谱格式',
  'moves.count': '{n} 手', 'moves.title': '着法', toMove: '轮到{side}', 'turn.yours': '轮到你走（{side}）', vs: ' 对 ',
  'seat.open': '空位', 'seat.level': '电脑难度', 'seat.waiting': '等待对手', 'seat.invited': '已邀请', 'seat.you': '你',
  'result.wins': '{side}胜 — {reason}', 'result.draw': '和棋 — {reason}', 'result.unfinished': '未结束',
  'new.title': '新对局', 'new.game': '棋种：', 'new.opponent': '对手：', 'new.computer': '电脑：', 'new.secondComputer': '第二台电脑：',
  'new.youPlay': '你执：', 'new.clockLabel': '计时：', 'new.undo': '允许悔棋', 'new.yourName': '你的名字：',
  'new.namePlaceholder': '你的名字', 'new.start': '开始', 'new.think': '思考', 'new.fixedBoard': '固定棋盘',
  'new.fromPosition': '使用照片中的局面', 'new.fromPhoto': '从照片识别的局面开始：',
  'new.firstMover': '{side}（先走）', 'new.random': '随机', 'new.oppComputer': '电脑', 'new.oppLocal': '同屏的人',
  'new.oppInvite': '别处的人（邀请链接）', 'new.oppEngines': '电脑对电脑（观战）',
  'new.noClock': '不计时', 'new.clock': '基本时间 + 每步加秒', 'new.min': '分', 'new.sec': '秒',
  'opp.levels': '难度', 'opp.papers': '论文中的算法', 'opp.engines': '本服务器的引擎', 'opp.other': '其他',
  'level.beginner': '入门', 'level.casual': '休闲', 'level.club': '业余', 'level.expert': '高手', 'level.master': '大师',
  'player.strong': '全力（按每步时间）', 'player.random': '随机着法', 'player.seed': '论文 {n}',
  'table.notFound': '找不到这个对局', 'table.notFoundHelp': '链接有误，或对局已不存在。', 'table.backToLobby': '返回大厅',
  'table.inviteUsed': '这个邀请链接已经用过，座位已有人。你正在观战。',
  'table.seatRevoked': '你的座位已交给新的邀请链接。你正在观战。',
  'replay.notFound': '找不到这盘棋',
  'signal.check': '将军！{side}被将', 'signal.checkTurn': '轮到{side} — 被将军', 'signal.forbiddenMarked': '黑方禁手点已标出（×）。',
  'jiu.count': '棋子数 — 黑 {black}，白 {white}', 'jiu.placement': '布局：已下 {n} / 196', 'jiu.battle': '行棋 · 连续 {n} 步未吃子',
  'c6.stones': '本回合落子：{n}（还剩 {left}）',
  'pick.stonesLeft': '本回合还要下 {n} 子', 'pick.square': '成方！请点击要吃掉的 {n} 枚对方棋子',
  'pick.jiuLand': '点击落点（再点一次最后的落点可停止连跳）', 'pick.xqTarget': '点击标出的落点',
  'pick.forbidden': '{point} 是黑方禁手：{reason}。',
  'forbidden.double-three': '三三', 'forbidden.double-four': '四四', 'forbidden.overline': '长连（六子及以上）',
  'offer.draw': '{side}提和。', 'offer.undo': '{side}请求悔棋。', 'offer.accept': '同意', 'offer.decline': '拒绝',
  'btn.pass': '弃权', 'btn.undo': '悔棋', 'btn.draw': '提和', 'btn.resign': '认输', 'btn.resignConfirm': '确定认输吗？',
  'btn.flip': '翻转棋盘', 'btn.flipTitle': '把棋盘转过来', 'btn.review': '复盘分析', 'btn.analyse': '在分析棋盘打开',
  'btn.analyseHere': '从这里分析',
  'invite.send': '把这个链接发给执{side}的人（只能用一次）：', 'invite.lost': '对手丢失了座位？',
  'invite.lostHelp': '新链接可让对方回来；他原来的座位和之前的链接都会失效。', 'invite.newLink': '为{side}生成新链接',
  'think.computer': '电脑思考：', 'think.depth': '深度 {n}',
  'score.even': '均势', 'score.winsIn': '{side} {n} 步胜', 'eval.bar': '{side}：{p}%',
  'an.positionPlaceholder': '局面文本（留空：初始局面）', 'an.setup': '摆放', 'an.takeBack': '退一步', 'an.position': '局面：',
  'an.think': '思考', 'an.analyse': '分析', 'an.stop': '停止', 'an.engine': '引擎：', 'an.starting': '启动中…', 'an.best': '最佳着法：',
  'an.playIt': '走这步', 'an.line': '变化', 'an.otherLines': '其他变化', 'an.start': '（开局）',
  'review.title': '复盘', 'review.progress': '正在分析第 {n} / {total} 个局面…', 'review.graph': '{side}逐步的期望得分',
  'review.eval': '评估：', 'review.better': '更好的是', 'review.showLine': '查看变化',
  'judge.inaccuracy': '缓着', 'judge.mistake': '错着', 'judge.blunder': '败着',
  'judge.inaccuracys': '缓着', 'judge.mistakes': '错着', 'judge.blunders': '败着',
  'photo.title': '拍照识棋', 'photo.help': '真实五子棋、六子棋或久棋棋盘的照片（JPEG 或 PNG，不超过 8 MiB），俯拍或斜拍均可。',
  'photo.lines': '路数：', 'photo.findSize': '自动识别', 'photo.readButton': '识别局面', 'photo.choose': '请先选择照片。',
  'photo.tooLarge': '照片超过 8 MiB。', 'photo.reading': '正在识别照片…', 'photo.failed': '上传失败：{e}',
  'photo.doubtful': '最不确定的点：', 'photo.read': '识别出 {size}×{size} 的{game}棋盘：黑 {black}，白 {white}。',
  'photo.analyse': '在分析棋盘打开', 'photo.play': '从这个局面开局',
  'cam.title': '摄像头跟棋', 'cam.help': '把手机或电脑的摄像头对准真实的五子棋或六子棋棋盘（俯拍或斜拍，整个棋盘都在画面内）。识别出的棋盘显示在旁边，建议着法画在画面上，棋盘静止后记录每一步。手机需通过 HTTPS 打开本页（serve --tls-cert … --tls-key …）。',
  'cam.as': '执子：', 'cam.mode': '电脑：', 'cam.suggest': '只给建议', 'cam.play': '下棋（按提示落子）', 'cam.level': '级别：',
  'cam.start': '打开摄像头', 'cam.stop': '停止', 'cam.stopped': '摄像头已关闭。',
  'cam.insecure': '浏览器只在 HTTPS 或 localhost 页面上提供摄像头：请用 https:// 打开本页（boyi serve --tls-cert 文件 --tls-key 文件）。',
  'cam.noCamera': '没有摄像头：{e}', 'cam.denied': '权限被拒绝', 'cam.settling': '等待棋盘静止…', 'cam.noBoard': '（画面中没有棋盘）',
  'cam.waiting': '等待{side}落子。', 'cam.suggestion': '{side}建议：{move}', 'cam.place': '请在 {move} 放{side}棋子。', 'cam.over': '对局结束：{result}',
  'rules.title': '{game}规则',
};

const GAMES = { en: { gomoku: 'Gomoku', connect6: 'Connect6', jiu: 'Jiu', xiangqi: 'Xiangqi' }, zh: { gomoku: '五子棋', connect6: '六子棋', jiu: '久棋', xiangqi: '象棋' } };
const VARIANTS = {
  en: { 'gomoku.freestyle': 'freestyle', 'gomoku.standard': 'standard (exactly five)', 'gomoku.renju': 'renju',
    'connect6.fives': 'full board: more fives wins', 'connect6.icga': 'ICGA (full board: draw)', standard: 'standard rules' },
  zh: { 'gomoku.freestyle': '无禁手', 'gomoku.standard': '标准（恰好五子）', 'gomoku.renju': '连珠（黑有禁手）',
    'connect6.fives': '满盘：五连多者胜', 'connect6.icga': 'ICGA（满盘和棋）', standard: '标准规则' },
};
const SIDES = { en: { black: 'Black', white: 'White', red: 'Red' }, zh: { black: '黑方', white: '白方', red: '红方' } };
const REASONS = {
  'five in a row': '五子连珠', 'six in a row': '六子连珠', 'board full': '棋盘已满', 'two passes': '双方弃权',
  'board full, more fives': '满盘，五连较多', "board full, fives not more than white's": '满盘，五连不多于白方',
  'fewer than 4 pieces': '棋子少于 4 枚', 'no legal move': '无子可走', '100 moves without capture': '连续 100 步未吃子',
  'threefold repetition': '三次重复局面', checkmate: '将死', stalemate: '困毙', 'perpetual check': '长将',
  '60-move rule': '60 回合无吃子', 'agreed draw': '议和', agreement: '议和', 'move-count rule': '自然限着',
  resignation: '认输', time: '超时', adjudication: '裁定', crash: '程序故障', 'illegal-move': '非法着法', forfeit: '判负',
};

const DICTS = { en: EN, zh: ZH };
let listeners = [];

function browserLang() {
  return (navigator.languages || [navigator.language || 'en']).some((l) => /^zh\b/i.test(l)) ? 'zh' : 'en';
}

export function lang() {
  const chosen = pref('lang', '');
  return chosen === 'zh' || chosen === 'en' ? chosen : browserLang();
}

export function setLang(l) {
  setPref('lang', l);
  document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
  for (const f of listeners) f();
}

export function onLangChange(f) { listeners.push(f); }

export function t(key, vars) {
  const text = DICTS[lang()][key] ?? EN[key] ?? key;
  return vars ? text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : text;
}

export function gameName(game) { return GAMES[lang()][game] || game; }
export function variantName(game, v) { return VARIANTS[lang()][`${game}.${v}`] || VARIANTS[lang()][v] || v; }

// A side as the game calls it: in Xiangqi the protocol's 'white' is red.
export function sideLabel(game, side) {
  const key = game === 'xiangqi' && side === 'white' ? 'red' : side;
  return SIDES[lang()][key] || side;
}

export function levelName(id) { return t(`level.${id}`); }

// A built-in player's name for people: the papers' players by their paper.
export function playerName(spec) {
  if (!spec) return '';
  const seed = /^boyi:seed(\d+)/.exec(spec);
  if (seed) return t('player.seed', { n: seed[1] });
  if (spec === 'boyi:strong') return t('player.strong');
  if (spec === 'boyi:random') return t('player.random');
  return spec;
}

export function forbiddenReason(reason) { return t(`forbidden.${reason}`); }

// A result's reason in the interface's language ("Red resigned", "black ran out of time").
// `loser` names the side that lost, for the reasons a side causes (resignation, time).
// Older games say who in the reason itself ("red resigned").
export function reasonText(game, reason, loser) {
  const zh = lang() === 'zh';
  let m = /^(black|white|red) (resigned|ran out of time)$/.exec(reason);
  if (!m && loser && (reason === 'resignation' || reason === 'time')) {
    m = [reason, game === 'xiangqi' && loser === 'white' ? 'red' : loser, reason === 'time' ? 'ran out of time' : 'resigned'];
  }
  if (m) return zh ? `${SIDES.zh[m[1]]}${m[2] === 'resigned' ? '认输' : '超时'}` : `${SIDES.en[m[1]]} ${m[2]}`;
  const detail = /^(crash|illegal-move): (.*)$/.exec(reason);
  if (detail) return `${zh ? REASONS[detail[1]] : detail[1].replace('-', ' ')}: ${detail[2]}`;
  return zh ? REASONS[reason] || reason : reason;
}
