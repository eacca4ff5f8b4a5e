//! The value transformers of kube-apiserver's encryption providers, byte for byte as
//! k8s.io/apiserver pkg/storage/value/encrypt writes them, so either server reads what
//! the other wrote with the same keys. After the provider's prefix
//! (`k8s:enc:<provider>:v1:`) and the key's `<name>:` come:
//!
//! * aescbc: a random 16-byte IV, then AES-CBC of the value with PKCS#7 padding;
//! * aesgcm: a random 12-byte nonce, then AES-GCM ciphertext and 16-byte tag, with the
//!   object's etcd key as additional authenticated data (a value copied under another
//!   key does not decrypt);
//! * secretbox: a random 24-byte nonce, then NaCl secretbox (XSalsa20-Poly1305).
//!
//! Error texts are upstream's: a client sees them in the 500 of an object that does not
//! decrypt.

use aes::cipher::{block_padding::NoPadding, BlockDecryptMut, BlockEncryptMut, KeyIvInit};
use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes128Gcm, Aes256Gcm, AesGcm};
use crypto_secretbox::XSalsa20Poly1305;
use ring::rand::{SecureRandom, SystemRandom};

/// AES-GCM with a 192-bit key and the standard 12-byte nonce (upstream takes 24-byte keys).
type Aes192Gcm = AesGcm<aes::Aes192, aes_gcm::aead::consts::U12>;

const BLOCK: usize = 16;
const GCM_NONCE: usize = 12;
const SECRETBOX_NONCE: usize = 24;
/// secretbox's Poly1305 tag.
const SECRETBOX_OVERHEAD: usize = 16;

pub(super) const SHORT: &str = "the stored data was shorter than the required size";

/// One key of one provider, ready to use.
pub(super) enum Cipher {
    /// aescbc; the raw key (16, 24 or 32 bytes), as each value has its own IV.
    Cbc(Vec<u8>),
    /// aesgcm.
    Gcm(Box<Gcm>),
    /// secretbox.
    Secretbox(Box<XSalsa20Poly1305>),
}

/// AES-GCM for each key size upstream accepts.
pub(super) enum Gcm {
    A128(Aes128Gcm),
    A192(Aes192Gcm),
    A256(Aes256Gcm),
}

fn random(buf: &mut [u8]) -> Result<(), String> {
    SystemRandom::new()
        .fill(buf)
        .map_err(|_| "unable to read sufficient random bytes".to_owned())
}

impl Cipher {
    /// aescbc with `key`; `None` for a length AES does not take.
    pub(super) fn cbc(key: &[u8]) -> Option<Cipher> {
        matches!(key.len(), 16 | 24 | 32).then(|| Cipher::Cbc(key.to_vec()))
    }

    /// aesgcm with `key`.
    pub(super) fn gcm(key: &[u8]) -> Option<Cipher> {
        let g = match key.len() {
            16 => Gcm::A128(Aes128Gcm::new_from_slice(key).ok()?),
            24 => Gcm::A192(Aes192Gcm::new_from_slice(key).ok()?),
            32 => Gcm::A256(Aes256Gcm::new_from_slice(key).ok()?),
            _ => return None,
        };
        Some(Cipher::Gcm(Box::new(g)))
    }

    /// secretbox with `key` (32 bytes).
    pub(super) fn secretbox(key: &[u8]) -> Option<Cipher> {
        let c = XSalsa20Poly1305::new_from_slice(key).ok()?;
        Some(Cipher::Secretbox(Box::new(c)))
    }

    /// Encrypts `plain` stored under `key`: what follows the `<name>:` prefix.
    pub(super) fn seal(&self, plain: &[u8], key: &[u8]) -> Result<Vec<u8>, String> {
        match self {
            Cipher::Cbc(k) => {
                let mut iv = [0u8; BLOCK];
                random(&mut iv)?;
                cbc_seal(k, &iv, plain)
            }
            Cipher::Gcm(g) => {
                let mut nonce = [0u8; GCM_NONCE];
                random(&mut nonce)
                    .map_err(|e| format!("failed to write nonce for AES-GCM: {e}"))?;
                gcm_seal(g, &nonce, plain, key)
            }
            Cipher::Secretbox(c) => {
                let mut nonce = [0u8; SECRETBOX_NONCE];
                random(&mut nonce)?;
                let sealed = c
                    .encrypt(&nonce.into(), plain)
                    .map_err(|_| "secretbox: encryption failed".to_owned())?;
                let mut out = nonce.to_vec();
                out.extend_from_slice(&sealed);
                Ok(out)
            }
        }
    }

    /// Decrypts what follows the `<name>:` prefix of a value stored under `key`.
    pub(super) fn open(&self, data: &[u8], key: &[u8]) -> Result<Vec<u8>, String> {
        match self {
            Cipher::Cbc(k) => cbc_open(k, data),
            Cipher::Gcm(g) => {
                if data.len() < GCM_NONCE {
                    return Err(SHORT.to_owned());
                }
                let (nonce, sealed) = data.split_at(GCM_NONCE);
                let payload = Payload {
                    msg: sealed,
                    aad: key,
                };
                let opened = match g.as_ref() {
                    Gcm::A128(c) => c.decrypt(nonce.into(), payload),
                    Gcm::A192(c) => c.decrypt(nonce.into(), payload),
                    Gcm::A256(c) => c.decrypt(nonce.into(), payload),
                };
                // Go's crypto/cipher words it so.
                opened.map_err(|_| "cipher: message authentication failed".to_owned())
            }
            Cipher::Secretbox(c) => {
                if data.len() < SECRETBOX_NONCE + SECRETBOX_OVERHEAD {
                    return Err(SHORT.to_owned());
                }
                let (nonce, sealed) = data.split_at(SECRETBOX_NONCE);
                // Upstream's (odd) words for a secretbox that does not open.
                c.decrypt(nonce.into(), sealed)
                    .map_err(|_| "output array was not large enough for encryption".to_owned())
            }
        }
    }
}

/// AES-CBC of `plain` with PKCS#7 padding under `iv`, the IV first.
pub(super) fn cbc_seal(key: &[u8], iv: &[u8; BLOCK], plain: &[u8]) -> Result<Vec<u8>, String> {
    let pad = BLOCK - plain.len() % BLOCK;
    let mut out = Vec::with_capacity(BLOCK + plain.len() + pad);
    out.extend_from_slice(iv);
    out.extend_from_slice(plain);
    out.extend(std::iter::repeat_n(pad as u8, pad));
    let body = &mut out[BLOCK..];
    let len = body.len();
    let done = match key.len() {
        16 => cbc::Encryptor::<aes::Aes128>::new_from_slices(key, iv)
            .map_err(|e| e.to_string())?
            .encrypt_padded_mut::<NoPadding>(body, len)
            .map(|_| ()),
        24 => cbc::Encryptor::<aes::Aes192>::new_from_slices(key, iv)
            .map_err(|e| e.to_string())?
            .encrypt_padded_mut::<NoPadding>(body, len)
            .map(|_| ()),
        _ => cbc::Encryptor::<aes::Aes256>::new_from_slices(key, iv)
            .map_err(|e| e.to_string())?
            .encrypt_padded_mut::<NoPadding>(body, len)
            .map(|_| ()),
    };
    done.map_err(|_| "the stored data is not a multiple of the block size".to_owned())?;
    Ok(out)
}

fn cbc_open(key: &[u8], data: &[u8]) -> Result<Vec<u8>, String> {
    if data.len() < BLOCK {
        return Err(SHORT.to_owned());
    }
    let (iv, body) = data.split_at(BLOCK);
    if body.len() % BLOCK != 0 {
        return Err("the stored data is not a multiple of the block size".to_owned());
    }
    let mut out = body.to_vec();
    let done = match key.len() {
        16 => cbc::Decryptor::<aes::Aes128>::new_from_slices(key, iv)
            .map_err(|e| e.to_string())?
            .decrypt_padded_mut::<NoPadding>(&mut out)
            .map(|_| ()),
        24 => cbc::Decryptor::<aes::Aes192>::new_from_slices(key, iv)
            .map_err(|e| e.to_string())?
            .decrypt_padded_mut::<NoPadding>(&mut out)
            .map(|_| ()),
        _ => cbc::Decryptor::<aes::Aes256>::new_from_slices(key, iv)
            .map_err(|e| e.to_string())?
            .decrypt_padded_mut::<NoPadding>(&mut out)
            .map(|_| ()),
    };
    done.map_err(|_| "the stored data is not a multiple of the block size".to_owned())?;
    // PKCS#7, checked as upstream checks it.
    let Some(&last) = out.last() else {
        return Err("invalid PKCS7 data (empty or not padded)".to_owned());
    };
    let pad = usize::from(last);
    if pad == 0 || pad > out.len() {
        return Err("invalid PKCS7 data (empty or not padded)".to_owned());
    }
    let size = out.len() - pad;
    if out[size..].iter().any(|b| *b != last) {
        return Err("invalid padding on input".to_owned());
    }
    out.truncate(size);
    Ok(out)
}

/// AES-GCM of `plain` under `nonce` with `key` (the etcd key) authenticated, nonce first.
pub(super) fn gcm_seal(
    g: &Gcm,
    nonce: &[u8; GCM_NONCE],
    plain: &[u8],
    key: &[u8],
) -> Result<Vec<u8>, String> {
    let payload = Payload {
        msg: plain,
        aad: key,
    };
    let sealed = match g {
        Gcm::A128(c) => c.encrypt(nonce.into(), payload),
        Gcm::A192(c) => c.encrypt(nonce.into(), payload),
        Gcm::A256(c) => c.encrypt(nonce.into(), payload),
    }
    .map_err(|_| "AES-GCM: encryption failed".to_owned())?;
    let mut out = nonce.to_vec();
    out.extend_from_slice(&sealed);
    Ok(out)
}
