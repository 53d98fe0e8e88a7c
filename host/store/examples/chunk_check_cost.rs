//! What checking chunks on read costs: one 64 MiB read and 1000 4 KiB
//! range reads of a workspace on /dev/shm against `std::fs::read`, best of
//! 7 (BENCHMARKS.md "Chunk checks on read"). Run with
//! `cargo run --release -p computer-store --example chunk_check_cost`.

use std::time::Instant;
fn main() {
    let dir = std::path::Path::new("/dev/shm/computer-chunk-check-cost");
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let ws = computer_store::Workspace::open(dir.join("w.db")).unwrap();
    let data: Vec<u8> = (0..64usize << 20)
        .map(|i| (i * 7 + i / 4096) as u8)
        .collect();
    ws.write("/big", &data, &Default::default()).unwrap();
    std::fs::write(dir.join("native"), &data).unwrap();
    let best = |f: &dyn Fn()| {
        (0..7)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::MAX, f64::min)
    };
    let read = best(&|| assert_eq!(ws.read("/big").unwrap().len(), data.len()));
    let native = best(&|| assert_eq!(std::fs::read(dir.join("native")).unwrap().len(), data.len()));
    use sha2::Digest;
    let sha = best(&|| {
        std::hint::black_box(sha2::Sha256::digest(&data));
    });
    let small = best(&|| {
        for i in 0..1000u64 {
            ws.read_range("/big", i * 65536, Some(4096)).unwrap();
        }
    });
    let _ = std::fs::remove_dir_all(dir);
    println!(
        "read 64 MiB: {read:.1} ms, native {native:.1} ms, ratio {:.2}x; sha256 of 64 MiB alone {sha:.1} ms; 1000 x 4 KiB range reads {small:.1} ms",
        read / native
    );
}
