//! Go's stable sort (`sort.SliceStable`: insertion sort on blocks of 20, then SymMerge
//! passes), replayed step for step, because upstream sorts merged lists with a comparison
//! that is not an ordering when items are missing from the order list, and the order it
//! produces then depends on the algorithm. With a proper ordering any stable sort gives
//! the same result, and callers use the standard library's instead.

/// Sorts `data` stably by `less`, comparing and swapping exactly as Go does.
pub(crate) fn stable_sort<T>(data: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    const BLOCK: usize = 20;
    let n = data.len();
    let mut block = BLOCK;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, less);
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, less);
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(data, a, a + block, b, less);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(data, a, m, n, less);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(data: &mut [T], a: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Merges the sorted runs `data[a..m]` and `data[m..b]` in place (Kim and Kutzner's
/// SymMerge, as Go implements it).
fn sym_merge<T>(data: &mut [T], a: usize, m: usize, b: usize, less: &impl Fn(&T, &T) -> bool) {
    if m - a == 1 {
        // Insert data[a] into data[m..b] by binary search.
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&data[h], &data[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            data.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        // Insert data[m] into data[a..m] by binary search.
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&data[m], &data[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&data[p - c], &data[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        data[start..end].rotate_left(m - start);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_stable_sort_for_orderings() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in [0usize, 1, 2, 19, 20, 21, 40, 41, 77, 160, 333, 1000] {
            let mut items: Vec<(u64, usize)> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 17, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|(k, _)| *k);
            stable_sort(&mut items, &|x: &(u64, usize), y: &(u64, usize)| x.0 < y.0);
            assert_eq!(items, expected, "len {len}");
        }
    }

    #[test]
    fn always_less_reverses_within_a_block() {
        let mut v: Vec<u32> = (0..5).collect();
        stable_sort(&mut v, &|_: &u32, _: &u32| true);
        assert_eq!(v, [4, 3, 2, 1, 0]);
        // Larger inputs terminate and keep every item.
        let mut v: Vec<u32> = (0..1000).collect();
        stable_sort(&mut v, &|_: &u32, _: &u32| true);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<_>>());
    }
}
