//! Every record reader on arbitrary bytes: the first byte picks the format (or format
//! sniffing), the rest is the file. Readers return records or errors, never panic.

#![no_main]

use boyi_records::{Format, ReadOptions, read};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let formats = Format::ALL;
    match formats.get(usize::from(pick) % (formats.len() + 1)) {
        Some(&format) => {
            let _ = read(file, format, &ReadOptions::default());
        }
        None => {
            if let Some(format) = Format::sniff(file) {
                let _ = read(file, format, &ReadOptions::default());
            }
        }
    }
});
