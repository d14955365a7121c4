//! Memory, side by side: live heap bytes per entry after inserting 2 × capacity keys into each
//! cache (u64 → u64, capacity 1,000,000 by default), counted by a counting global allocator.
//!
//! "Live" is bytes allocated minus bytes freed while the cache was built and filled, divided by
//! the capacity; it counts what the program asked for, not the allocator's own overhead. The
//! hashbrown floor does not evict, so it gets only `capacity` keys.
//!
//! Prints a markdown table and `bytes_per_entry NAME X` lines; a full run also writes its
//! section of `results/table.md`. A separate binary from the speed bench, because counting
//! every allocation would slow the contenders that allocate per entry.

mod common;

use std::alloc::System;
use std::fmt::Write as _;
use std::hint::black_box;

use cache::{Cache, ManualClock};
use common::{Args, OURS_EXPIRING, Subject, Visitor, grouped, to_f64};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

// The counting wrapper comes from `stats_alloc`, so this file needs no `unsafe`.
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Live heap bytes per unit of capacity, for each contender in turn.
struct Measure {
    capacity: usize,
    rows: Vec<(&'static str, &'static str, f64)>,
}

impl Measure {
    /// Builds a cache with `make`, runs `fill` on it, and records its live heap bytes per unit
    /// of capacity.
    fn record<S>(
        &mut self,
        id: &'static str,
        label: &'static str,
        make: impl FnOnce() -> S,
        fill: impl FnOnce(&mut S),
    ) {
        let region = Region::new(GLOBAL);
        let mut subject = make();
        fill(&mut subject);
        let change = region.change();
        black_box(&subject);
        drop(subject);
        // Realloc growth counts as allocated and shrinkage as freed, so this is what is live.
        let live = change.bytes_allocated.saturating_sub(change.bytes_deallocated);
        self.rows.push((id, label, to_f64(live) / to_f64(self.capacity)));
    }
}

impl Visitor for Measure {
    fn visit<S: Subject + 'static>(&mut self, id: &'static str, label: &'static str, make: fn(usize) -> S) {
        let capacity = self.capacity;
        // With 1 tick per insertion its entries expire, so it would hold only half a cache:
        // `full_with_moving_clock` measures a full cache whose clock moves instead.
        if id == OURS_EXPIRING {
            return;
        }
        let inserts = if S::BOUNDED { 2 * capacity } else { capacity } as u64;
        self.record(
            id,
            label,
            || make(capacity),
            |subject| {
                for key in 0..inserts {
                    subject.step(key, key);
                }
            },
        );
    }
}

/// Our cache full, with a clock that moves: a ttl of 1.5 × capacity ticks, one tick per insert,
/// 4 × capacity inserts. Every entry is evicted just before its deadline, so the clock keeps
/// reaching the horizon, and the records that each pass over the deadlines lists are counted,
/// as a busy cache with a ttl holds them. (The other rows' clocks stand still.)
fn full_with_moving_clock(measure: &mut Measure) {
    let capacity = measure.capacity;
    let clock = ManualClock::new(0);
    let ttl = 3 * capacity as u64 / 2;
    measure.record(
        "cache_ttl_moving",
        "cache, ttl 1.5 × capacity ticks, clock moving",
        || Cache::<u64, u64, _>::with_clock(capacity, Some(ttl), clock.clone()),
        |cache| {
            for key in 0..4 * capacity as u64 {
                clock.set(key);
                cache.put(key, key);
            }
            assert_eq!(cache.len(), capacity, "the cache is full at the end");
        },
    );
}

fn main() {
    let args = Args::parse("memory");
    let capacity = args.capacities.iter().copied().max().unwrap_or(1_000_000);
    eprintln!("memory: filling each contender at capacity {}", grouped(capacity));
    let mut measure = Measure { capacity, rows: Vec::new() };
    common::for_each_contender(&mut measure);
    full_with_moving_clock(&mut measure);

    let mut table = format!(
        "## Memory\n\nLive heap bytes per entry after inserting 2 × capacity keys (u64 → u64, 16 bytes of \
         payload) into a cache of capacity {}; the hashbrown floor gets capacity keys.\n\n\
         | contender | bytes/entry |\n| --- | ---: |\n",
        grouped(capacity)
    );
    for (_, label, bytes) in &measure.rows {
        let _ = writeln!(table, "| {label} | {bytes:.1} |");
    }
    println!("{table}");
    for (id, _, bytes) in &measure.rows {
        println!("bytes_per_entry {id} {bytes:.1}");
    }

    if args.write_results {
        common::save_section("memory", "memory", &table);
    }
}
