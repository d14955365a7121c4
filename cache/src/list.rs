//! Doubly linked lists threaded through a slice by `u32` indices.
//!
//! The cache keeps its recency order in one, through its slots (most recently used first).
//! Indices instead of pointers keep the code safe, halve the link size on 64-bit targets, and let
//! a slot move in memory with one [`List::relocate`].
//!
//! The list ends in `NIL` rather than closing into a circle. A circular list turns an eviction
//! into a rotation that writes no link, but every other move must then read and write the tail
//! too: measured with `scripts/bench --instructions`, it ran 137 and 132 instructions per
//! operation at 10,000 and 1,000,000 entries, against 132 and 123 (`experiment/circular-lists`
//! in `cache/benches/experiments.md`).

/// The index that means "no node".
pub(crate) const NIL: u32 = u32::MAX;

/// A node's neighbours in one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Links {
    pub(crate) prev: u32,
    pub(crate) next: u32,
}

impl Links {
    /// The links of a node that is in no list yet.
    pub(crate) const DETACHED: Links = Links { prev: NIL, next: NIL };
}

/// Something that carries the links of one list.
pub(crate) trait Node {
    fn links(&self) -> &Links;
    fn links_mut(&mut self) -> &mut Links;
}

/// The two ends of a list; the nodes themselves live in a slice the caller owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct List {
    pub(crate) head: u32,
    pub(crate) tail: u32,
}

#[inline]
fn at<N: Node>(nodes: &mut [N], i: u32) -> &mut Links {
    nodes[i as usize].links_mut()
}

/// Node `i`'s links, or `None` for `NIL`: one comparison, where testing for `NIL` and then
/// indexing took two. (`NIL` is never an index: a slice of nodes holds fewer than `u32::MAX`.)
#[inline]
fn node<N: Node>(nodes: &mut [N], i: u32) -> Option<&mut Links> {
    nodes.get_mut(i as usize).map(Node::links_mut)
}

impl List {
    pub(crate) const EMPTY: List = List { head: NIL, tail: NIL };

    /// Links the detached node `i` in at the head.
    #[inline]
    pub(crate) fn push_front<N: Node>(&mut self, nodes: &mut [N], i: u32) {
        let old = self.head;
        *at(nodes, i) = Links { prev: NIL, next: old };
        match node(nodes, old) {
            Some(old) => old.prev = i,
            None => self.tail = i,
        }
        self.head = i;
    }

    /// Takes node `i` out of the list; its own links are left stale.
    #[inline]
    pub(crate) fn unlink<N: Node>(&mut self, nodes: &mut [N], i: u32) {
        let Links { prev, next } = *at(nodes, i);
        match node(nodes, prev) {
            Some(prev) => prev.next = next,
            None => self.head = next,
        }
        match node(nodes, next) {
            Some(next) => next.prev = prev,
            None => self.tail = prev,
        }
    }

    /// Moves node `i`, which is in the list, to the head.
    #[inline]
    pub(crate) fn move_to_front<N: Node>(&mut self, nodes: &mut [N], i: u32) {
        // The hottest keys are read again and again while already at the front.
        if self.head == i {
            return;
        }
        // Not the head, so `i` has a predecessor, and the list a head to push in front of.
        let Links { prev, next } = *at(nodes, i);
        at(nodes, prev).next = next;
        match node(nodes, next) {
            Some(next) => next.prev = prev,
            None => self.tail = prev,
        }
        *at(nodes, i) = Links { prev: NIL, next: self.head };
        at(nodes, self.head).prev = i;
        self.head = i;
    }

    /// Moves node `i`, which is in the list, to the tail.
    #[inline]
    pub(crate) fn move_to_back<N: Node>(&mut self, nodes: &mut [N], i: u32) {
        if self.tail == i {
            return;
        }
        // Not the tail, so `i` has a successor, and the list a tail to push behind.
        let Links { prev, next } = *at(nodes, i);
        at(nodes, next).prev = prev;
        match node(nodes, prev) {
            Some(prev) => prev.next = next,
            None => self.head = next,
        }
        *at(nodes, i) = Links { prev: self.tail, next: NIL };
        at(nodes, self.tail).next = i;
        self.tail = i;
    }

    /// Points the neighbours of the node now stored at `to` (moved there from another index by
    /// `swap_remove`) at its new index.
    #[inline]
    pub(crate) fn relocate<N: Node>(&mut self, nodes: &mut [N], to: u32) {
        let Links { prev, next } = *at(nodes, to);
        match node(nodes, prev) {
            Some(prev) => prev.next = to,
            None => self.head = to,
        }
        match node(nodes, next) {
            Some(next) => next.prev = to,
            None => self.tail = to,
        }
    }

    /// Walks the list from the head, checking every back link, shows `visit` each index in
    /// order, and returns how many it visited; or says what is broken: a bad back link, an index
    /// out of range, a cycle, a wrong tail. Allocates nothing: fuzzers call it after every step.
    pub(crate) fn walk<N: Node>(self, nodes: &[N], mut visit: impl FnMut(u32)) -> Result<usize, String> {
        let mut visited = 0;
        let mut prev = NIL;
        let mut i = self.head;
        while i != NIL {
            let Some(node) = nodes.get(i as usize) else {
                return Err(format!("link to slot {i} of {}", nodes.len()));
            };
            if node.links().prev != prev {
                return Err(format!("slot {i} links back to {} instead of {prev}", node.links().prev));
            }
            if visited == nodes.len() {
                return Err("cycle".to_owned());
            }
            visit(i);
            visited += 1;
            prev = i;
            i = node.links().next;
        }
        if self.tail != prev {
            return Err(format!("tail is {} but the walk ends at {prev}", self.tail));
        }
        Ok(visited)
    }
}
