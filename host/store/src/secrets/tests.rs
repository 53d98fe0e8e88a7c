use crate::{Errno, Workspace};

#[test]
fn set_list_reveal_remove() {
    let ws = Workspace::in_memory().unwrap();
    assert!(ws.secrets().set("TOKEN", b"s3cr3t-value").unwrap());
    assert!(!ws.secrets().set("TOKEN", b"other-value").unwrap());
    assert_eq!(
        ws.secrets().reveal("TOKEN").unwrap().as_slice(),
        b"other-value"
    );
    let names: Vec<_> = ws
        .secrets()
        .list()
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["TOKEN"]);
    ws.secrets().remove("TOKEN").unwrap();
    assert_eq!(
        ws.secrets().remove("TOKEN").unwrap_err().code,
        Errno::ENOENT
    );
    assert_eq!(
        ws.secrets().reveal("TOKEN").unwrap_err().code,
        Errno::ENOENT
    );
}

#[test]
fn bad_names_and_values_say_nothing_of_the_value() {
    let ws = Workspace::in_memory().unwrap();
    for bad in ["", "1A", "a-b", "a b"] {
        assert_eq!(ws.secrets().set(bad, b"v").unwrap_err().code, Errno::EINVAL);
    }
    for bad in [&b""[..], b"line\nbreak-XYZ", b"nul\0XYZ"] {
        let e = ws.secrets().set("A", bad).unwrap_err();
        assert_eq!(e.code, Errno::EINVAL);
        assert!(!e.to_string().contains("XYZ"), "{e}");
    }
}

#[test]
fn the_file_holds_no_plaintext_and_another_key_cannot_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ws.db");
    let value = b"plaintext-canary-7f3a9c";
    {
        let ws = Workspace::open(&db).unwrap();
        ws.secrets().set("CANARY", value).unwrap();
        assert_eq!(ws.secrets().reveal("CANARY").unwrap().as_slice(), value);
    }
    let key = super::key_path(&db);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
        0o600
    );
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let p = entry.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        assert!(
            !bytes.windows(value.len()).any(|w| w == value),
            "{} holds the value",
            p.display()
        );
    }
    // Reopened with the same key file: readable.
    let ws = Workspace::open(&db).unwrap();
    assert_eq!(ws.secrets().reveal("CANARY").unwrap().as_slice(), value);
    drop(ws);
    // Another key: refused, without the value in the message.
    std::fs::remove_file(&key).unwrap();
    std::fs::write(&key, [7u8; 32]).unwrap();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    let ws = Workspace::open(&db).unwrap();
    let e = ws.secrets().reveal("CANARY").unwrap_err();
    assert_eq!(e.code, Errno::EPERM, "{e}");
    // A key file others can read is refused.
    drop(ws);
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let ws = Workspace::open(&db).unwrap();
    let e = ws.secrets().reveal("CANARY").unwrap_err();
    assert!(e.to_string().contains("chmod 600"), "{e}");
}

#[test]
fn credentials_need_their_secrets_and_a_named_host() {
    use crate::{Credential, CredentialKind};
    let ws = Workspace::in_memory().unwrap();
    let (n, t) = Credential::header("Authorization: Bearer {secret:GH}").unwrap();
    let e = ws
        .net()
        .attach("api.example.com", CredentialKind::Header, &n, &t)
        .unwrap_err();
    assert_eq!(e.code, Errno::ENOENT, "{e}");
    ws.secrets().set("GH", b"tok").unwrap();
    let e = ws
        .net()
        .attach("*.example.com", CredentialKind::Header, &n, &t)
        .unwrap_err();
    assert_eq!(e.code, Errno::EINVAL, "{e}");
    ws.net()
        .attach("api.example.com", CredentialKind::Header, &n, &t)
        .unwrap();
    assert!(ws.net().contains("api.example.com").unwrap());
    assert_eq!(
        ws.net()
            .credentials_for("API.example.com", 443)
            .unwrap()
            .len(),
        1
    );
    assert!(
        ws.net()
            .credentials_for("example.com", 443)
            .unwrap()
            .is_empty()
    );
    ws.net()
        .attach("127.0.0.1:8080", CredentialKind::Query, "k", "{secret:GH}")
        .unwrap();
    assert_eq!(
        ws.net().credentials_for("127.0.0.1", 8080).unwrap().len(),
        1
    );
    assert!(
        ws.net()
            .credentials_for("127.0.0.1", 8081)
            .unwrap()
            .is_empty()
    );
    ws.net().deny("api.example.com").unwrap();
    assert!(
        ws.net()
            .credentials_for("api.example.com", 443)
            .unwrap()
            .is_empty()
    );
    assert_eq!(ws.net().credentials().unwrap().len(), 1);
}
