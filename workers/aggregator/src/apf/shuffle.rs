//! Shuffle sharding: the queues a flow's hash deals it, as upstream's dealer does: a
//! hand of distinct queues drawn from the hash's digits, so that two heavy flows rarely
//! share all their queues with a light one.

use super::config::QueueShape;

/// The most hash bits a hand may need (upstream's shuffle-sharding limit).
const MAX_HASH_BITS: f64 = 60.0;

/// Whether `shape`'s hands can be dealt from a 64-bit hash.
pub(crate) fn check_shape(shape: QueueShape) -> Result<(), String> {
    if shape.hand_size > shape.queues {
        return Err(format!(
            "handSize {} is greater than deckSize {}",
            shape.hand_size, shape.queues
        ));
    }
    let bits = ((shape.queues as f64).log2() * shape.hand_size as f64).ceil();
    if bits > MAX_HASH_BITS {
        return Err(format!(
            "required entropy bits of deckSize {} and handSize {} is greater than {MAX_HASH_BITS}",
            shape.queues, shape.hand_size
        ));
    }
    Ok(())
}

/// The queues a flow's hash deals: `hand` distinct queue indexes below `deck`, taken from
/// the hash's digits in mixed radix (deck, deck-1, …), each digit counting only the
/// queues not dealt yet.
pub(crate) fn deal(hash: u64, deck: usize, hand: usize) -> Vec<usize> {
    let mut rest = hash;
    let mut dealt: Vec<usize> = Vec::with_capacity(hand);
    for i in 0..hand {
        let radix = (deck - i) as u64;
        let mut card = (rest % radix) as usize;
        rest /= radix;
        // The card-th queue among those not dealt yet.
        let mut taken: Vec<usize> = dealt.clone();
        taken.sort_unstable();
        for t in taken {
            if t <= card {
                card += 1;
            }
        }
        dealt.push(card);
    }
    dealt
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_are_distinct_queues() {
        for hash in [0u64, 1, 12345, u64::MAX, 0xdead_beef_cafe] {
            let mut hand = deal(hash, 64, 8);
            assert!(hand.iter().all(|&c| c < 64));
            hand.sort_unstable();
            hand.dedup();
            assert_eq!(hand.len(), 8);
        }
        assert_eq!(deal(7, 1, 1), vec![0]);
        assert!(check_shape(QueueShape {
            queues: 128,
            hand_size: 9,
            queue_length_limit: 1
        })
        .is_err());
    }
}
