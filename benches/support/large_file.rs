//! What both benchmarks load: the 3.7 MB `www.xuexi.cn.txt` when `$ROBOTSCOPE_CORPUS`
//! or the workspace's `../shared/corpus/real` has it, else a generated file of the same
//! shape (its source states no licence, so it is not in this repository).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The large file's name and bytes.
pub fn large_file() -> (String, Vec<u8>) {
    let candidates = [
        std::env::var_os("ROBOTSCOPE_CORPUS").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/real")),
    ];
    for dir in candidates.into_iter().flatten() {
        if let Ok(bytes) = std::fs::read(dir.join("www.xuexi.cn.txt")) {
            return ("www.xuexi.cn.txt".to_owned(), bytes);
        }
    }
    // 47,063 Allow lines of two 32-digit hex names, as in the real file.
    let mut text = String::from("User-Agent: *\n");
    for i in 0..47_063u64 {
        let hash = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let _ = writeln!(text, "Allow: /{hash:032x}/{:032x}.html", hash.rotate_left(17));
    }
    text.push_str("Disallow: /");
    ("generated-3.7MB.txt".to_owned(), text.into_bytes())
}
