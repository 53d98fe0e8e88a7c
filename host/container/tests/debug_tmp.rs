use std::sync::Arc;
use computer_container::*;
use computer_store::*;
#[test]
fn dbg() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).unwrap());
    let b = ContainerBackend::new(ContainerConfig { state_dir: Some(dir.path().join("state")), ..Default::default() }).unwrap();
    ws.write("/ro/file.txt", b"original\n", &WriteOptions { create_parents: true, ..Default::default() }).unwrap();
    ws.set_readonly("/ro", true).unwrap();
    let r = b.exec(ws.clone(), "echo changed > ro/file.txt; echo ok > rw.txt; ls -la . ro", Default::default()).unwrap().wait();
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
    println!("{:?}", ws.readdir("/", Page::all()));
    let st = b.status(&ws);
    println!("{}", std::fs::read_to_string(std::path::Path::new(&st.copy_dir).parent().unwrap().join("manifest.json")).unwrap());
    b.stop(&ws).unwrap();
}
