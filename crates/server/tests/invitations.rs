//! Invitation links are single-use: the joiner gets a token of their own and the link is
//! spent; a lost seat comes back only through a new link made by the other player or the
//! table's creator, which revokes the lost token. Older clients are told to reload.

mod common;

use common::{Client, TestServer};
use serde_json::json;

/// A Gomoku table: black held by its creator, white waiting for an invitation.
async fn invite_table(a: &mut Client) -> (String, String, String, String) {
    a.send(
        json!({"v": 3, "type": "create", "game": "gomoku", "size": 9,
                  "black": {"kind": "human", "name": "Ann"},
                  "white": {"kind": "human", "hold": false}}),
    )
    .await;
    let c = a.recv_type("created").await;
    let tok = |s: &str| c["tokens"][s].as_str().unwrap().to_string();
    (
        c["table"].as_str().unwrap().to_string(),
        tok("black"),
        tok("white"),
        c["creator"].as_str().unwrap().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_used_invitation_is_refused_and_its_visitor_watches() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut ann = Client::connect(server.addr).await;
    let (table, black, link, _) = invite_table(&mut ann).await;
    // The creator's answer and the lobby never show the creator's token hash.
    let (_, lobby) = common::http_get(server.addr, "/api/lobby").await;
    assert!(!lobby.contains("creator"));
    let mut bob = Client::connect(server.addr).await;
    let joined = bob.join_as(&table, &link, "Bob").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["side"], "white");
    let bob_token = joined["token"].as_str().unwrap().to_string();
    assert_ne!(bob_token, link);
    let s = bob.recv_type("state").await;
    assert_eq!(s["seats"][1]["name"], "Bob");
    assert_eq!(s["seats"][1]["open"], false);
    assert!(s["options"].get("creator").is_none());
    // The link's token cannot move, even before anyone else uses it.
    bob.play(&table, &link, "e5").await;
    let e = bob.recv_type("error").await;
    assert_eq!(e["code"], "invitation_used", "{e}");
    // A third browser with the same link: refused, told why, and watching.
    let mut eve = Client::connect(server.addr).await;
    let refused = eve.join_as(&table, &link, "Eve").await;
    assert_eq!(refused["code"], "invitation_used", "{refused}");
    assert_eq!(refused["token"], link.as_str());
    assert!(refused["message"].as_str().unwrap().contains("taken"));
    ann.play(&table, &black, "e5").await;
    let s = eve.recv_type("update").await;
    assert_eq!(s["plies"], 1, "the visitor watches");
    let s = eve.fresh_state(&table).await;
    assert_eq!(s["seats"][1]["name"], "Bob", "nobody took Bob's seat");
    // Bob reconnects with his own token and plays.
    let mut bob2 = Client::connect(server.addr).await;
    let again = bob2.join_as(&table, &bob_token, "Bob").await;
    assert_eq!(again["token"], bob_token.as_str());
    bob2.play(&table, &bob_token, "e6").await;
    let s = ann.state_at(&table, 2).await;
    assert_eq!(s["moves"][1]["text"], "e6");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_seat_comes_back_only_through_a_new_link() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut ann = Client::connect(server.addr).await;
    let (table, black, link, creator) = invite_table(&mut ann).await;
    let mut bob = Client::connect(server.addr).await;
    let bob_token = bob.join_as(&table, &link, "Bob").await["token"]
        .as_str()
        .unwrap()
        .to_string();
    // Bob loses his browser's storage. A stranger cannot make a link, nor can Bob's old
    // invitation.
    let mut eve = Client::connect(server.addr).await;
    for token in ["0123456789abcdef0123456789abcdef", link.as_str()] {
        eve.send(
            json!({"v": 3, "type": "invite", "table": table, "token": token, "side": "white"}),
        )
        .await;
        let e = eve.recv_type("error").await;
        assert_eq!(e["code"], "not_allowed", "{e}");
    }
    // Ann (the other player) makes a new link: Bob's old token stops working at once.
    ann.send(json!({"v": 3, "type": "invite", "table": table, "token": black, "side": "white"}))
        .await;
    let invited = ann.recv_type("invited").await;
    assert_eq!(invited["side"], "white");
    let new_link = invited["token"].as_str().unwrap().to_string();
    let s = ann.recv_type("state").await;
    assert_eq!(s["seats"][1]["invited"], true);
    assert_eq!(
        s["seats"][1]["open"], false,
        "the lobby does not offer a re-invited seat"
    );
    bob.play(&table, &bob_token, "e5").await;
    let e = bob.recv_type("error").await;
    assert_eq!(e["code"], "no_seat", "{e}");
    assert!(e["message"].as_str().unwrap().contains("new invitation"));
    let mut lobby = Client::connect(server.addr).await;
    lobby
        .send(json!({"v": 3, "type": "sit", "table": table}))
        .await;
    assert!(lobby.error().await.contains("no open seat"));
    // Bob comes back through the new link with a fresh token.
    let mut bob2 = Client::connect(server.addr).await;
    let back = bob2.join_as(&table, &new_link, "Bob").await;
    assert_eq!(back["side"], "white", "{back}");
    let fresh = back["token"].as_str().unwrap().to_string();
    assert!(fresh != bob_token && fresh != new_link);
    // The creator's token may make links too (here for Ann's own seat).
    let mut host = Client::connect(server.addr).await;
    host.send(json!({"v": 3, "type": "invite", "table": table, "token": creator, "side": "black"}))
        .await;
    let invited = host.recv_type("invited").await;
    assert_eq!(invited["side"], "black");
    ann.play(&table, &black, "e5").await;
    assert_eq!(ann.recv_type("error").await["code"], "no_seat");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn older_clients_cannot_join_through_a_link_and_unknown_tables_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite"));
    let mut ann = Client::connect(server.addr).await;
    let (table, black, link, _) = invite_table(&mut ann).await;
    let mut old = Client::connect(server.addr).await;
    old.send(json!({"v": 2, "type": "join", "table": table, "token": link}))
        .await;
    let e = old.recv_type("error").await;
    assert_eq!(e["code"], "upgrade", "{e}");
    assert!(e["message"].as_str().unwrap().contains("reload"));
    // A held seat still reconnects from an older client.
    old.send(json!({"v": 2, "type": "join", "table": table, "token": black}))
        .await;
    assert_eq!(old.recv_type("joined").await["side"], "black");
    // The link is still unused: a current client joins with it.
    let mut bob = Client::connect(server.addr).await;
    assert_eq!(bob.join_as(&table, &link, "Bob").await["type"], "joined");
    old.send(json!({"v": 3, "type": "watch", "table": "nosuchtable"}))
        .await;
    let e = old.recv_type("error").await;
    assert_eq!(e["code"], "unknown_table");
    assert_eq!(e["table"], "nosuchtable");
}
