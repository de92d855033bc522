//! The `inlay` command-line tool.
fn main() {
    println!("inlay");
}
