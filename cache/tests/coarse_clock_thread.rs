//! `CoarseClock`'s thread ends with the last clone, however long its resolution. A test binary of
//! its own: it counts the process's threads by name, which other tests' clocks would disturb.
#![cfg(target_os = "linux")]

use std::fs;
use std::thread;
use std::time::Duration;

use cache::{Clock, CoarseClock};

/// Threads of this process running a `CoarseClock` (Linux keeps 15 bytes of a thread's name).
fn clock_threads() -> usize {
    let tasks = fs::read_dir("/proc/self/task").expect("Linux lists a process's threads");
    tasks
        .filter_map(|task| fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim_end() == "cache::CoarseCl")
        .count()
}

/// Waits about a second at most for `want` clock threads; returns how many there are.
fn settle_at(want: usize) -> usize {
    for _ in 0..1000 {
        if clock_threads() == want {
            break;
        }
        thread::sleep(Duration::from_millis(1));
    }
    clock_threads()
}

#[test]
fn the_thread_ends_with_the_last_clone_even_for_an_hour_long_resolution() {
    assert_eq!(clock_threads(), 0);
    let clock = CoarseClock::new(Duration::from_secs(3600));
    let copy = clock.clone();
    assert_eq!(settle_at(1), 1, "one thread for the clock and its clones");
    drop(clock);
    thread::sleep(Duration::from_millis(20));
    assert_eq!(clock_threads(), 1, "a clone is left: the thread goes on");
    assert!(copy.now() > 0);
    drop(copy);
    assert_eq!(settle_at(0), 0, "the thread outlived the last clone");
    // The longest resolution there is: the same.
    let forever = CoarseClock::new(Duration::MAX);
    assert_eq!(settle_at(1), 1);
    drop(forever);
    assert_eq!(settle_at(0), 0, "the thread outlived a clock of resolution Duration::MAX");
}
