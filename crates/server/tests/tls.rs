//! HTTPS: a server given a certificate and its key (self-signed, made here) serves the page,
//! the API and the WebSocket over TLS, and nothing in plain HTTP; bad files are refused at
//! start, naming what is wrong.

mod common;

use boyi_server::Config;
use boyi_server::tls::TlsFiles;
use common::TestServer;
use rustls::pki_types::{CertificateDer, ServerName};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A self-signed certificate for `localhost` and its key, written as PEM files in `dir`.
fn certificate(dir: &Path, name: &str) -> (TlsFiles, CertificateDer<'static>) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let files = TlsFiles {
        cert: dir.join(format!("{name}.pem")),
        key: dir.join(format!("{name}-key.pem")),
    };
    std::fs::write(&files.cert, made.cert.pem()).unwrap();
    std::fs::write(&files.key, made.signing_key.serialize_pem()).unwrap();
    (files, made.cert.der().clone())
}

fn config(dir: &Path, tls: TlsFiles) -> Config {
    Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: boyi_store::Db::Sqlite(dir.join("db.sqlite")),
        tls: Some(tls),
        ..Config::default()
    }
}

/// One request over TLS to `localhost` trusting only `root`: the whole answer.
async fn https(addr: SocketAddr, root: &CertificateDer<'static>, request: &str) -> String {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(root.clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(client));
    let tcp = TcpStream::connect(addr).await.unwrap();
    let name = ServerName::try_from("localhost").unwrap();
    let mut tls = connector.connect(name, tcp).await.unwrap();
    tls.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    // An upgraded connection stays open: read what comes within a moment.
    let _ =
        tokio::time::timeout(std::time::Duration::from_secs(5), tls.read_to_end(&mut buf)).await;
    String::from_utf8_lossy(&buf).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_the_api_and_the_websocket_are_served_over_tls() {
    let dir = tempfile::tempdir().unwrap();
    let (files, root) = certificate(dir.path(), "server");
    let server = TestServer::start_config(config(dir.path(), files));
    let get =
        |path: &str| format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    let page = https(server.addr, &root, &get("/")).await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("/assets/js/main.js"), "{page}");
    assert!(
        page.to_ascii_lowercase()
            .contains("content-security-policy"),
        "{page}"
    );
    let script = https(server.addr, &root, &get("/assets/js/camera.js")).await;
    assert!(script.starts_with("HTTP/1.1 200"), "{script}");
    let meta = https(server.addr, &root, &get("/api/meta")).await;
    assert!(
        meta.starts_with("HTTP/1.1 200") && meta.contains("connect6"),
        "{meta}"
    );
    let upgrade = https(
        server.addr,
        &root,
        "GET /ws HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    )
    .await;
    assert!(upgrade.starts_with("HTTP/1.1 101"), "{upgrade}");
    assert!(
        upgrade.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
        "the WebSocket accept key: {upgrade}"
    );
    // Plain HTTP to the TLS port gets no page.
    let mut plain = TcpStream::connect(server.addr).await.unwrap();
    plain.write_all(get("/").as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        plain.read_to_end(&mut buf),
    )
    .await;
    assert!(!String::from_utf8_lossy(&buf).contains("main.js"));
}

#[test]
fn bad_certificate_or_key_files_are_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (good, _) = certificate(d, "good");
    let (other, _) = certificate(d, "other");
    let junk = d.join("junk.pem");
    std::fs::write(&junk, "hello, not a certificate\n").unwrap();
    let missing = d.join("missing.pem");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for (cert, key, words) in [
        (&missing, &good.key, "--tls-cert"),
        (&missing, &good.key, "missing.pem"),
        (&junk, &good.key, "no PEM certificate"),
        (&good.cert, &junk, "--tls-key"),
        (&good.cert, &missing, "missing.pem"),
        // The key of another certificate.
        (&good.cert, &other.key, "is it the certificate's own key"),
    ] {
        let tls = TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
        };
        let err = match runtime.block_on(boyi_server::start(config(d, tls))) {
            Ok(_) => panic!("{cert:?} with {key:?} started"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(words), "{cert:?} {key:?}: {err}");
    }
    // Nothing was created: the files are checked before the database is opened.
    assert!(!d.join("db.sqlite").exists());
}
