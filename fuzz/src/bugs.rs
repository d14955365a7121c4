//! Planted bugs: deliberate mistakes in the cache, each a small edit of its source, that the
//! harness must catch. A green fuzzer proves nothing; catching every one of these does.
//!
//! `scripts/hunt` plants each bug in a scratch copy of the repository and measures how the
//! harness does. The edits name exact text of the cache's source, so a test checks that each one
//! still applies after the cache changes.

/// One planted bug.
#[derive(Clone, Copy, Debug)]
pub struct Bug {
    /// A short name, used on the command line.
    pub name: &'static str,
    /// What goes wrong, in a sentence.
    pub summary: &'static str,
    /// The file the edits apply to, from the repository's root.
    pub file: &'static str,
    /// `(find, replace)` pairs; each `find` must occur exactly once in the file.
    pub edits: &'static [(&'static str, &'static str)],
}

const CACHE: &str = "cache/src/cache.rs";
const INDEX: &str = "cache/src/index.rs";
const ITER: &str = "cache/src/iter.rs";
const UPCOMING: &str = "cache/src/upcoming.rs";

/// The edits that swap the cache's derived `Clone` for a hand-written one that copies every
/// field and then sets `$field` to `$value`: the field a hand-written clone forgets.
macro_rules! clone_forgetting {
    ($field:literal, $value:literal) => {
        &[
            ("#[derive(Clone)]\npub struct Cache<", "pub struct Cache<"),
            (
                "    pub(crate) stats: Stats,\n}\n",
                concat!(
                    "    pub(crate) stats: Stats,\n}\n\n",
                    "impl<K: Clone, V: Clone, C: Clock + Clone, S: Clone> Clone for Cache<K, V, C, S> {\n",
                    "    fn clone(&self) -> Self {\n",
                    "        let mut copy = Self {\n",
                    "            slots: self.slots.clone(), deadlines: self.deadlines.clone(), index: self.index.clone(),\n",
                    "            recency: self.recency, pending: self.pending, upcoming: self.upcoming.clone(),\n",
                    "            next_deadline: self.next_deadline, last_deadline: self.last_deadline,\n",
                    "            capacity: self.capacity, ttl: self.ttl,\n",
                    "            clock: self.clock.clone(), hasher: self.hasher.clone(), stats: self.stats,\n",
                    "        };\n",
                    "        copy.", $field, " = ", $value, ";\n",
                    "        copy\n",
                    "    }\n",
                    "}\n",
                ),
            ),
        ]
    };
}

/// Every planted bug.
pub const BUGS: &[Bug] = &[
    Bug {
        name: "get-skips-refresh",
        summary: "get does not make the entry the most recently used",
        file: CACHE,
        edits: &[(
            "        self.pending = i;\n        &mut self.slots[i as usize].value\n",
            "        &mut self.slots[i as usize].value\n",
        )],
    },
    Bug {
        name: "overwrite-at-capacity-evicts",
        summary: "a put into a full cache evicts before looking for the key, even for an overwrite",
        file: CACHE,
        edits: &[(
            "        if let Some(i) = self.find(hash, &key) {\n",
            "        if self.slots.len() >= limit {\n            self.remove_slot(self.recency.tail);\n            self.stats.evictions += 1;\n        }\n        if let Some(i) = self.find(hash, &key) {\n",
        )],
    },
    Bug {
        name: "removal-leaves-ghost",
        summary: "removing an entry leaves a stale link to the moved slot (a ghost) in the recency list",
        file: CACHE,
        edits: &[("            self.recency.relocate(&mut self.slots, i);\n", "")],
    },
    Bug {
        name: "deadline-inclusive",
        summary: "an entry is still live exactly at its deadline (<= instead of <)",
        file: CACHE,
        edits: &[(".is_none_or(|&deadline| now < deadline)", ".is_none_or(|&deadline| now <= deadline)")],
    },
    Bug {
        name: "overwrite-keeps-timer",
        summary: "an overwrite does not restart the entry's timer",
        file: CACHE,
        edits: &[(
            "            let (old_key, old_value) = self.rewrite_slot(i, key, value, deadline);\n",
            "            let slot = &mut self.slots[i as usize];\n            let (old_key, old_value) = (mem::replace(&mut slot.key, key), mem::replace(&mut slot.value, value));\n            self.recency.move_to_front(&mut self.slots, i);\n",
        )],
    },
    Bug {
        name: "get-extends-ttl",
        summary: "get restarts the entry's timer, as if it were a write",
        file: CACHE,
        edits: &[(
            "        Some(self.hit(i))\n    }",
            "        if let Some(ttl) = self.ttl {\n            self.last_deadline = self.now().saturating_add(ttl).max(self.last_deadline);\n            self.restart_timer(i, self.last_deadline);\n        }\n        Some(self.hit(i))\n    }",
        )],
    },
    Bug {
        name: "resize-keeps-all",
        summary: "resize sets the capacity but evicts nothing",
        file: CACHE,
        edits: &[(
            "        while self.slots.len() > limit {\n            let evicted = self.remove_slot(self.recency.tail);\n            // Counted before the entry is dropped: its `Drop` may panic.\n            self.stats.evictions += 1;\n            drop(evicted);\n        }\n",
            "",
        )],
    },
    Bug {
        name: "peek-promotes",
        summary: "peek makes the entry the most recently used (impossible with `peek(&self)`: the bug changes the signature)",
        file: CACHE,
        edits: &[
            (
                "    pub fn peek<Q>(&self, key: &Q) -> Option<&V>",
                "    pub fn peek<Q>(&mut self, key: &Q) -> Option<&V>",
            ),
            (
                "        let i = self.find(self.hasher.hash_one(key), key)?;\n        self.is_live(i, self.now()).then(|| &self.slots[i as usize].value)",
                "        let i = self.find(self.hasher.hash_one(key), key)?;\n        if !self.is_live(i, self.now()) {\n            return None;\n        }\n        self.recency.move_to_front(&mut self.slots, i);\n        Some(&self.slots[i as usize].value)",
            ),
            (
                "        self.peek(key).is_some()",
                "        self.find(self.hasher.hash_one(key), key).is_some_and(|i| self.is_live(i, self.now()))",
            ),
        ],
    },
    Bug {
        name: "evicted-value-forgotten",
        summary: "put forgets the evicted value instead of dropping it (a leak)",
        file: CACHE,
        edits: &[(
            "            Write::Stored | Write::Evicted(..) | Write::Refused(..) | Write::DeadOnArrival => None,",
            "            Write::Evicted(_, value) => {\n                std::mem::forget(value);\n                None\n            }\n            Write::Stored | Write::Refused(..) | Write::DeadOnArrival => None,",
        )],
    },
    Bug {
        name: "len-counts-expired",
        summary: "len counts entries that expired but are not cleaned up yet",
        file: CACHE,
        edits: &[("        self.slots.len() - expired\n", "        self.slots.len() - expired * 0\n")],
    },
    Bug {
        name: "capacity-zero-panics",
        summary: "a put into a cache of capacity 0 indexes an empty list and panics",
        file: CACHE,
        edits: &[(
            "        if limit == 0 {\n            return Write::Refused(key, value);\n        }\n",
            "",
        )],
    },
    Bug {
        name: "push-loses-old-pair",
        summary: "push returns nothing on an overwrite instead of the old pair",
        file: CACHE,
        edits: &[(
            "            Write::Replaced(k, v) | Write::Evicted(k, v) | Write::Refused(k, v) => Some((k, v)),",
            "            Write::Evicted(k, v) | Write::Refused(k, v) => Some((k, v)),\n            Write::Replaced(..) => None,",
        )],
    },
    Bug {
        name: "evicts-most-recent",
        summary: "a full cache evicts the most recently used entry instead of the least",
        file: CACHE,
        edits: &[("        let lru = self.recency.tail;\n", "        let lru = self.recency.head;\n")],
    },
    Bug {
        name: "misses-counted-as-hits",
        summary: "stats count a get that misses as a hit",
        file: CACHE,
        edits: &[(
            "            self.stats.misses += 1;\n            return None;",
            "            self.stats.hits += 1;\n            return None;",
        )],
    },
    Bug {
        name: "expired-evicts-live",
        summary: "a write does not drop expired entries first, so a full cache evicts a live entry (and overwrites see expired ones)",
        file: CACHE,
        edits: &[(
            "        let now = self.purge_now();\n        // Hash before",
            "        self.settle();\n        let now = self.now();\n        // Hash before",
        )],
    },
    Bug {
        name: "iter-shows-expired",
        summary: "iter yields entries that have expired",
        file: ITER,
        edits: &[(".is_none_or(|&deadline| self.now < deadline) {", ".is_none_or(|_| true) {")],
    },
    Bug {
        name: "moved-slot-hashed-late",
        summary: "a removal hashes the key it moves into the hole only after moving it, so a panicking Hash leaves the index naming a slot that is gone",
        file: CACHE,
        edits: &[(
            "        if let Some(hash) = moved_hash {\n",
            "        if moved_hash.is_some() {\n            let hash = self.hasher.hash_one(&self.slots[i as usize].key);\n",
        )],
    },
    Bug {
        name: "resize-shrinks-capacity-first",
        summary: "resize lowers the capacity before evicting down to it, so a panicking Hash leaves more entries than the capacity",
        file: CACHE,
        edits: &[
            (
                "        self.purge_now();\n        // The capacity changes once",
                "        self.capacity = capacity;\n        self.purge_now();\n        // The capacity changes once",
            ),
            (
                "        self.capacity = capacity;\n        if limit < self.slots.capacity() {",
                "        if limit < self.slots.capacity() {",
            ),
        ],
    },
    Bug {
        name: "iter-len-counts-expired",
        summary: "the iterator's length counts expired entries that are not cleaned up yet",
        file: CACHE,
        edits: &[("self.pending, now, self.live_at(now))", "self.pending, now, self.slots.len())")],
    },
    Bug {
        name: "iter-rev-yields-expired",
        summary: "walking the iterator from the back yields expired entries",
        file: ITER,
        edits: &[(
            "            if self.deadlines.get(at as usize)",
            "            if !forward || self.deadlines.get(at as usize)",
        )],
    },
    Bug {
        name: "clear-drops-before-unlinking",
        summary: "clear drops the entries before it empties the lists, so a panicking Drop leaves the lists naming slots that are gone",
        file: CACHE,
        edits: &[
            (
                "    pub fn clear(&mut self) {\n        self.index.clear();\n",
                "    pub fn clear(&mut self) {\n        self.index.clear();\n        self.slots.clear();\n",
            ),
            (
                "the cache is already empty and sound.\n        self.slots.clear();\n",
                "the cache is already empty and sound.\n",
            ),
        ],
    },
    Bug {
        name: "overwrite-leaks-on-drop-panic",
        summary: "put drops the old key after building its return value, so a panicking key Drop leaks the old value (rust-lang/rust#47949)",
        file: CACHE,
        edits: &[(
            "            Write::Replaced(old_key, old) => Some(value_of((old_key, old))),\n",
            "            Write::Replaced(_, old) => Some(old),\n",
        )],
    },
    Bug {
        name: "remove-leaks-on-drop-panic",
        summary: "remove drops the key after building its return value, so a panicking key Drop leaks the value (rust-lang/rust#47949)",
        file: CACHE,
        edits: &[(
            "        Some(value_of(self.take_slot(i, moved_hash)))\n",
            "        Some(self.take_slot(i, moved_hash).1)\n",
        )],
    },
    Bug {
        name: "peek-mut-promotes",
        summary: "peek_mut makes the entry the most recently used",
        file: CACHE,
        edits: &[(
            "        let i = self.find_live(key)?;\n",
            "        let i = self.find_live(key)?;\n        self.recency.move_to_front(&mut self.slots, i);\n",
        )],
    },
    Bug {
        name: "get-or-insert-returns-lru",
        summary: "get_or_insert_with, on a miss, answers with the least recently used entry's value instead of the new one",
        file: CACHE,
        edits: &[("let head = self.recency.head;", "let head = self.recency.tail;")],
    },
    Bug {
        name: "iter-len-counts-front-only",
        summary: "the iterator's len() goes down only for entries taken from the front",
        file: ITER,
        edits: &[(
            "                self.live -= 1;\n                return Some((&slot.key, &slot.value));",
            "                if forward {\n                    self.live -= 1;\n                }\n                return Some((&slot.key, &slot.value));",
        )],
    },
    Bug {
        name: "iter-mut-yields-expired",
        summary: "iter_mut does not drop the expired entries first, and yields them",
        file: CACHE,
        edits: &[(
            "        self.purge_now();\n        IterMut::new(&mut self.slots, self.recency)",
            "        self.settle();\n        IterMut::new(&mut self.slots, self.recency)",
        )],
    },
    Bug {
        name: "iter-mut-back-walks-forward",
        summary: "iter_mut, walking from the back, follows the links towards the back",
        file: ITER,
        edits: &[("            self.back = links.prev;", "            self.back = links.next;")],
    },
    Bug {
        name: "iter-mut-len-counts-front-only",
        summary: "iter_mut's len() goes down only for entries taken from the front",
        file: ITER,
        edits: &[(
            "            self.front = links.next;\n        } else {\n            self.back = links.prev;\n        }\n        self.left -= 1;\n",
            "            self.front = links.next;\n            self.left -= 1;\n        } else {\n            self.back = links.prev;\n        }\n",
        )],
    },
    Bug {
        name: "into-iter-yields-expired",
        summary: "iterating by value does not drop the expired entries first, and yields them",
        file: CACHE,
        edits: &[(
            "        self.purge_now();\n        IntoIter::new(self.slots, self.recency)",
            "        self.settle();\n        IntoIter::new(self.slots, self.recency)",
        )],
    },
    Bug {
        name: "into-iter-len-is-room",
        summary: "iterating by value reports the room its slots have, not how many are left, as its len()",
        file: ITER,
        edits: &[(
            "        (self.slots.len(), Some(self.slots.len()))",
            "        (self.slots.capacity(), Some(self.slots.capacity()))",
        )],
    },
    Bug {
        name: "into-iter-forgets-moved-slot",
        summary: "iterating by value moves the last slot into the hole without telling its neighbours",
        file: ITER,
        edits: &[(
            "        if (i as usize) < self.slots.len() {\n            self.recency.relocate(&mut self.slots, i);\n        }\n",
            "",
        )],
    },
    Bug {
        name: "failed-load-uncounted",
        summary: "try_get_or_insert_with does not count its miss when the value fails to be made",
        file: CACHE,
        edits: &[(
            "            Err(e) => {\n                self.stats.misses += 1;\n                return Err(e);",
            "            Err(e) => {\n                return Err(e);",
        )],
    },
    Bug {
        name: "failed-load-fails-hits",
        summary: "try_get_or_insert_with makes the value before looking the key up, so a maker that fails fails a hit too",
        file: CACHE,
        edits: &[
            (
                "        if let Some(i) = self.find_live(&key) {\n            return Ok(Some(self.hit(i)));",
                "        let made = make();\n        if let Some(i) = self.find_live(&key) {\n            made?;\n            return Ok(Some(self.hit(i)));",
            ),
            ("        let value = match make() {", "        let value = match made {"),
        ],
    },
    Bug {
        name: "peek-mru-shows-expired",
        summary: "peek_mru shows the most recently used entry even when it has expired",
        file: CACHE,
        edits: &[(
            "        let now = self.now();\n        self.pending_live(now).or_else(|| self.first_live(now, self.recency.head, |links| links.next))",
            "        let mru = if self.pending == NIL { self.recency.head } else { self.pending };\n        self.slots.get(mru as usize).map(|slot| (&slot.key, &slot.value))",
        )],
    },
    Bug {
        name: "pop-mru-pops-lru",
        summary: "pop_mru, copied from pop_lru, still takes the least recently used entry",
        file: CACHE,
        edits: &[(
            "        let mru = self.recency.head;\n        (mru != NIL)",
            "        let mru = self.recency.tail;\n        (mru != NIL)",
        )],
    },
    Bug {
        name: "promote-counts-hit",
        summary: "promote counts a hit, as get does",
        file: CACHE,
        edits: &[(
            "        self.recency.move_to_front(&mut self.slots, i);\n        true",
            "        self.hit(i);\n        true",
        )],
    },
    Bug {
        name: "demote-finds-expired",
        summary: "demote looks the key up without dropping what expired, so it moves an expired entry and says it was live",
        file: CACHE,
        edits: &[(
            "        let Some(i) = self.find_live(key) else { return false };\n        self.recency.move_to_back",
            "        self.settle();\n        let Some(i) = self.find(self.hasher.hash_one(key), key) else { return false };\n        self.recency.move_to_back",
        )],
    },
    Bug {
        name: "clone-resets-stats",
        summary: "a clone starts its hit, miss and eviction counts from zero",
        file: CACHE,
        edits: clone_forgetting!("stats", "Stats::default()"),
    },
    Bug {
        name: "clone-drops-ttl",
        summary: "a clone forgets the ttl: its entries never expire",
        file: CACHE,
        edits: clone_forgetting!("ttl", "None"),
    },
    Bug {
        name: "clone-forgets-deadline",
        summary: "a clone forgets when its first entry expires, and keeps expired entries as live",
        file: CACHE,
        edits: clone_forgetting!("next_deadline", "u64::MAX"),
    },
    Bug {
        name: "moved-entry-unrecorded",
        summary: "a removal that moves an entry due to expire soon into the hole gives it no record there, so it outlives its deadline",
        file: CACHE,
        edits: &[(
            "                if self.upcoming.moved(self.deadlines[i as usize], i) {\n                    self.note_next_deadline();\n                }\n",
            "",
        )],
    },
    Bug {
        name: "stale-record-drops-rewritten",
        summary: "a record whose entry was written again still drops what is in its slot at the old deadline",
        file: CACHE,
        edits: &[("if self.is_live(i, now) {", "if self.deadlines.get(i as usize).is_none() {")],
    },
    Bug {
        name: "horizon-past-unlisted",
        summary: "a pass over the deadlines puts its horizon at the latest possible deadline, past entries it did not list",
        file: UPCOMING,
        edits: &[("base: now, horizon: cut };", "base: now, horizon: latest };")],
    },
    Bug {
        name: "pass-skipped-at-horizon",
        summary: "when the clock lands exactly on the horizon, the entries expiring there, listed by no pass, are not dropped",
        file: CACHE,
        edits: &[(
            "        if self.upcoming.horizon() <= now {\n",
            "        if self.upcoming.horizon() < now {\n",
        )],
    },
    // A hit leaves its entry's move to the list's head to the next call (`Cache::pending`):
    // every reader of the order, and every call that changes the slots, must allow for it.
    Bug {
        name: "last-hit-never-settled",
        summary: "settling forgets the last hit instead of moving its entry to the head",
        file: CACHE,
        edits: &[(
            "        let i = mem::replace(&mut self.pending, NIL);\n        if i != NIL {\n            self.recency.move_to_front(&mut self.slots, i);\n        }\n",
            "        self.pending = NIL;\n",
        )],
    },
    Bug {
        name: "last-hit-settled-twice",
        summary: "settling moves the last hit's entry but keeps it as the last hit, to be moved again after other calls",
        file: CACHE,
        edits: &[(
            "        let i = mem::replace(&mut self.pending, NIL);\n",
            "        let i = self.pending;\n",
        )],
    },
    Bug {
        name: "clear-keeps-last-hit",
        summary: "clear forgets to drop the last hit, whose slot a later call then moves to the head",
        file: CACHE,
        edits: &[(
            "        self.pending = NIL;\n        self.upcoming = no_upcoming(self.ttl);",
            "        self.upcoming = no_upcoming(self.ttl);",
        )],
    },
    Bug {
        name: "peek-lru-shows-last-hit",
        summary: "peek_lru shows the last hit's entry while the list still holds it at the tail",
        file: CACHE,
        edits: &[("(i == self.pending || !self.is_live(i, now))", "!self.is_live(i, now)")],
    },
    Bug {
        name: "iter-ignores-last-hit",
        summary: "the iterator walks the list alone, showing the last hit's entry where it was before the hit",
        file: CACHE,
        edits: &[(
            "self.recency, self.pending, now, self.live_at(now))",
            "self.recency, NIL, now, self.live_at(now))",
        )],
    },
    Bug {
        name: "clone-forgets-last-hit",
        summary: "a clone forgets the last hit, so its entry keeps its old place in the clone's order",
        file: CACHE,
        edits: clone_forgetting!("pending", "NIL"),
    },
    Bug {
        name: "eviction-keeps-old-place",
        summary: "a new key written over an evicted one does not note its place, so the slot keeps the evicted key's and removing it later clears another lane",
        file: CACHE,
        edits: &[(
            "        self.index.insert(hash, lru);\n",
            "        self.index.insert_unnoted(hash, lru);\n",
        )],
    },
    Bug {
        name: "rename-keeps-old-place",
        summary: "a slot moved into a removal's hole keeps the place of the entry removed from there, so removing it later clears another lane",
        file: INDEX,
        edits: &[("                *renamed = moved;\n", "                let _ = (renamed, moved);\n")],
    },
];

/// `source` with `bug` planted.
///
/// # Errors
///
/// When an edit's text does not occur exactly once: the cache changed and the bug needs
/// rewriting.
pub fn plant(bug: &Bug, source: &str) -> Result<String, String> {
    let mut planted = source.to_owned();
    for (find, replace) in bug.edits {
        match planted.matches(find).count() {
            1 => planted = planted.replacen(find, replace, 1),
            n => {
                return Err(format!(
                    "bug {}: {:?} occurs {n} times in {}, not once",
                    bug.name, find, bug.file
                ));
            }
        }
    }
    Ok(planted)
}

/// The bug called `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static Bug> {
    BUGS.iter().find(|b| b.name == name)
}
