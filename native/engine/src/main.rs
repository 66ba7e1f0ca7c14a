fn main() {
    println!("racer {}", racer::api::TOOL_VERSION);
}
