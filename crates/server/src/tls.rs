//! HTTPS (`boyi serve --tls-cert FILE --tls-key FILE`): browsers let a page use the camera
//! only over HTTPS or on localhost, so a phone on the network needs it. The certificate
//! chain and the private key are PEM files; rustls (with ring) speaks TLS 1.2 and 1.3.

use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The PEM files of a certificate chain (the server's certificate first) and its key.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// The TLS setup of `files`, or what is wrong with them.
pub fn server_config(files: &TlsFiles) -> Result<Arc<ServerConfig>, String> {
    let certs = certificates(&files.cert)?;
    let key = PrivateKeyDer::from_pem_file(&files.key).map_err(|e| {
        format!(
            "--tls-key {}: no private key read ({})",
            files.key.display(),
            pem_error(e)
        )
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| {
            format!(
                "--tls-cert {} with --tls-key {}: {e} (is it the certificate's own key?)",
                files.cert.display(),
                files.key.display()
            )
        })?;
    // HTTP/1.1 only: the WebSocket endpoint upgrades an HTTP/1.1 request.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let what = |e: String| format!("--tls-cert {}: {e}", path.display());
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| what(pem_error(e)))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| what(pem_error(e)))?;
    if certs.is_empty() {
        return Err(what("no PEM certificate (BEGIN CERTIFICATE) in it".into()));
    }
    Ok(certs)
}

fn pem_error(e: rustls::pki_types::pem::Error) -> String {
    match e {
        rustls::pki_types::pem::Error::Io(e) => e.to_string(),
        rustls::pki_types::pem::Error::NoItemsFound => "no PEM item of that kind in it".into(),
        other => format!("not a valid PEM file: {other:?}"),
    }
}
