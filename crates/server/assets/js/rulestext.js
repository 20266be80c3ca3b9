// The rules of each game as the page tells them, in English and Chinese, with diagrams the
// page draws on its own board. Diagram stones: `b`/`w` lists of points; `last` a move
// drawn with its path and captures; `squares` 2×2 blocks by their lower-left point.
export const RULES = {
  gomoku: [
    {
      en: ['Board and play', 'Gomoku is played on the points of a 15×15 board (Boyi also offers 19, 20, 13 and 9 lines). Black places the first stone, then the players take turns, one stone each, on any empty point. A player may pass; two passes in a row end the game in a draw, and so does a full board.'],
      zh: ['棋盘与行棋', '五子棋在 15×15 的棋盘交叉点上进行（博弈也提供 19、20、13、9 路棋盘）。黑方先下，之后双方轮流每次下一子，可下在任何空点。可以弃权；连续两次弃权或棋盘下满为和棋。'],
    },
    {
      en: ['Five in a row', 'Five stones of one colour in an unbroken line — across, down or diagonal — win at once. In the freestyle rules a longer line also wins; in the standard rules only exactly five does.'],
      zh: ['五子连珠', '同色五子在横、竖或斜线上连成一线即获胜。无禁手规则下长连也算胜；标准规则只认恰好五子。'],
      diagram: { size: 15, b: ['h8', 'i9', 'j10', 'k11', 'l12'], w: ['h9', 'i10', 'j11', 'k12'], last: 'l12', win: ['h8', 'i9', 'j10', 'k11', 'l12'] },
    },
    {
      en: ['Renju: forbidden points for black', 'In renju black may not make a double three (two open threes at once), a double four, or an overline (six or more). Such points are marked with a small cross when black is to move; clicking one tells you which shape forbids it. A five made together with a forbidden shape still wins. White has no forbidden points, and an overline wins for white.'],
      zh: ['连珠：黑方禁手', '连珠规则下黑方不得走出三三（同时形成两个活三）、四四或长连（六子及以上）。轮到黑方时，禁手点以小叉标出；点击禁手点会说明是哪种禁手。与禁手同时形成的五连仍然获胜。白方没有禁手，白方长连也算胜。'],
      diagram: { size: 15, b: ['g8', 'h8', 'i9', 'i10'], w: ['g9', 'j11', 'f7', 'm13'], forbidden: ['i8'] },
    },
  ],
  connect6: [
    {
      en: ['Two stones a turn', 'Connect6 is played on a 19×19 board (or 15×15). Black places one stone first; from then on each side places two stones a turn: white 2 and 3, black 4 and 5, and so on. To play a turn, click two empty points; click a placed stone again to take it back before the second.'],
      zh: ['每回合两子', '六子棋在 19×19（或 15×15）棋盘上进行。黑方第一手只下一子，此后双方每回合各下两子：白 2、3，黑 4、5，依此类推。行棋时依次点击两个空点；放第二子之前再点第一子可以收回。'],
      diagram: { size: 15, b: ['h8', 'i9', 'g7'], w: ['h9', 'i8'], last: 'g7 i9' },
    },
    {
      en: ['Six in a row', 'Six or more stones of one colour in an unbroken line win at once, for either side; a stone that makes six ends the turn by itself. There are no forbidden points and no passing. If the board fills up, the side with more lines of exactly five wins (equal counts: white) under the default rules, or it is a draw under the ICGA rules.'],
      zh: ['六子连珠', '任何一方同色六子或以上连成一线即获胜；形成六连的那一子单独结束回合。没有禁手，不能弃权。棋盘下满时，默认规则下“五连”多的一方获胜（相同则白胜），ICGA 规则下为和棋。'],
      diagram: { size: 15, b: ['d4', 'e5', 'f6', 'g7', 'h8', 'i9'], w: ['d5', 'e6', 'f7', 'g8', 'j10'], last: 'h8 i9', win: ['d4', 'e5', 'f6', 'g7', 'h8', 'i9'] },
    },
  ],
  jiu: [
    {
      en: ['Placement (布局)', 'Jiu (久棋) is played on the 196 points of a 14×14 board with 98 pieces each. The short red diagonal in the middle joins g7 and h8. White places first and must take one end of the diagonal; black takes the other. Then the sides take turns placing one piece on any empty point until the board is full. Nothing moves or is captured during placement.'],
      zh: ['布局', '久棋在 14×14 共 196 个交叉点上进行，双方各 98 子。棋盘中央的红色短斜线连接 g7 和 h8（久物）。白方先布子，必须占斜线的一端，黑方占另一端。之后双方轮流在任意空点各放一子，直到棋盘摆满。布局阶段不走子也不吃子。'],
      diagram: { size: 14, jiu: true, w: ['g7', 'f6', 'g8'], b: ['h8', 'h7', 'f7'], last: 'f7' },
    },
    {
      en: ['Battle: steps (行棋)', 'When the board is full, the pieces on g7 and h8 are taken off and black, who placed last, moves first. A turn moves one piece one point up, down, left or right to an empty point — never diagonally.'],
      zh: ['行棋', '棋盘摆满后，拿掉 g7 和 h8 上的两子，由最后布子的黑方先走。每回合把一枚己子沿横线或竖线走到相邻的空点，不能斜走。'],
    },
    {
      en: ['Squares (成方)', 'When your piece lands so that it completes a 2×2 block of your pieces (a square, 方), you remove one enemy piece of your choice from anywhere on the board — two for two squares at once. On the board you click your piece, its landing point, then the enemy pieces to remove. Here black steps e3-e4, completes the square d4-e4-d5-e5 and removes j9.'],
      zh: ['成方', '己子落点与三枚己子组成 2×2 的方块（成方）时，可任选吃掉对方棋盘上任意一子；同时成两个方（双棋门）则吃两子。在棋盘上依次点击己子、落点，再点击要吃的对方棋子。图中黑方 e3-e4 成方（d4、e4、d5、e5），吃掉 j9。'],
      diagram: { size: 14, jiu: true, b: ['d4', 'd5', 'e5', 'e4', 'c7', 'k3'], w: ['f4', 'f5', 'c4', 'h10'], last: 'e3-e4 x j9', squares: ['d4'] },
    },
    {
      en: ['Jumps (跳吃)', 'A piece next to an enemy piece, with an empty point straight beyond it, may jump over it and take it. Jumps may go on in one turn and may turn corners; the chain may stop at any landing — click the last point again to stop. A jump that ends in a square earns its captures too. While a side has more than 14 pieces and the other 14 or fewer, the stronger side’s jumps must take at least two pieces.'],
      zh: ['跳吃', '己子与对方棋子相邻、其后方为空点时，可以跳过去把它吃掉。一回合内可以连跳，也可以转弯；连跳可在任何落点停止（再点一次最后的落点即停止）。跳吃后若成方，还可以再吃。当一方多于 14 子而对方 14 子或更少时，多子一方的跳吃至少要吃两子。'],
      diagram: { size: 14, jiu: true, b: ['h3', 'e5', 'd6'], w: ['j6', 'k4', 'i9'], last: 'f5-h5-h3' },
    },
    {
      en: ['Flying (飞子)', 'A side left with 14 pieces or fewer may also fly: move any of its pieces to any empty point on the board that is not next to it. Squares made by flying count as usual. Steps and jumps stay allowed.'],
      zh: ['飞子', '一方只剩 14 子或更少时，还可以飞子：把任意一枚己子移到棋盘上任意不相邻的空点。飞子成方照常吃子，走子和跳吃仍然可用。'],
      diagram: { size: 14, jiu: true, b: ['k9', 'j10', 'k10', 'j9', 'e2'], w: ['d4', 'e4', 'c11', 'l3'], last: 'c3*k9 x f6', squares: ['j9'] },
    },
    {
      en: ['End of the game', 'A side with fewer than 4 pieces loses. 100 moves in a row without a capture, or the same position with the same side to move for the third time, is a draw. A side that cannot move on its turn loses.'],
      zh: ['终局', '一方少于 4 子即负。连续 100 步无吃子，或同一局面同一方走第三次出现，为和棋。轮到一方而无子可走，该方负。'],
    },
  ],
  xiangqi: [
    {
      en: ['Board and pieces', 'Xiangqi is played on the 90 points of a board of 9 files and 10 ranks, with a river across the middle and a palace of 3×3 points on each side. Red moves first. Each side has a king (帥/將), two advisors (仕/士), two elephants (相/象), two horses (傌/馬), two chariots (俥/車), two cannons (炮/砲) and five pawns (兵/卒).'],
      zh: ['棋盘与棋子', '中国象棋棋盘有 9 条竖线、10 条横线共 90 个交叉点，中间为河界，两边各有 3×3 的九宫。红方先走。每方有帅（将）一、仕（士）二、相（象）二、马二、车二、炮二、兵（卒）五。'],
      diagram: { xiangqi: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' },
    },
    {
      en: ['How the pieces move', 'The king moves one point orthogonally and the advisors one point diagonally, both inside the palace. Elephants move two points diagonally, never across the river, and are blocked by a piece on the point between. The horse moves one point straight then one diagonally outward, and is blocked by a piece next to it in the direction of the move. The chariot moves any distance along a line. The cannon moves like a chariot but captures by jumping over exactly one piece. Pawns move one point forward, and also sideways once across the river. The two kings may never face each other on an open file.'],
      zh: ['棋子走法', '帅（将）在九宫内直走一格，仕（士）在九宫内斜走一格。相（象）走“田”字，不能过河，田心有子则不能走（塞象眼）。马走“日”字，先直后斜，紧挨马头有子则不能走（蹩马腿）。车直走任意距离。炮移动同车，吃子时须隔一子（炮架）。兵（卒）只能向前一格，过河后也可横走。双方将帅不能在同一直线上直接对面。'],
    },
    {
      en: ['Check and the end', 'A king under attack is in check (将军): the board marks it, and the side must answer it. A side with no legal move — checkmated or stalemated — loses. When a position comes back a third time, a side that checked with every move since loses (perpetual check); otherwise it is a draw. 60 moves each without a capture is a draw.'],
      zh: ['将军与终局', '将（帅）受到攻击即为“将军”，棋盘上会标出，被将军的一方必须应将。无棋可走（被将死或困毙）的一方负。同一局面第三次出现时，如果其间一方每步都在将军，则长将一方负；否则为和棋。双方各 60 步无吃子为和棋。'],
      diagram: { xiangqi: '4k4/3a5/9/9/9/9/9/9/4R4/3K5 b - - 0 1', check: 'e9', last: 'i1e1' },
    },
    {
      en: ['Notation', 'Boyi writes moves in coordinates (h2e2: from file h rank 2 to file e rank 2), and beside them in WXF (C2.5) and Chinese notation (炮二平五). Red counts its files 一 to 九 from its own right, black 1 to 9 from its own right; the numbers stand beside each side of the board.'],
      zh: ['记谱', '博弈以坐标记录着法（h2e2：从 h 线第 2 横线到 e 线第 2 横线），并同时给出 WXF（C2.5）和中文记谱（炮二平五）。红方从自己右手起数一至九路，黑方从自己右手起数 1 至 9 路，数字标在棋盘两侧。'],
    },
  ],
};
