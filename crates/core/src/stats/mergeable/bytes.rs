//! The byte form of the statistics: `b"NDLS"`, a format version, the type's tag, then the
//! fields in a fixed order: counts as `u64`, floats as `f64` (exact for `f32` and `f64`),
//! arrays as their dimensions followed by their entries in row-major order; all little-endian.

use crate::{Error, Float, Result};
use ndarray::{Array1, Array2};

const MAGIC: &[u8; 4] = b"NDLS";
const VERSION: u8 = 1;

/// Builds the bytes of one value.
pub(super) struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// A buffer with the header for the type `tag`.
    pub(super) fn new(tag: u8) -> Self {
        let mut buf = Vec::with_capacity(64);
        buf.extend_from_slice(MAGIC);
        buf.push(VERSION);
        buf.push(tag);
        Self { buf }
    }

    pub(super) fn u64(&mut self, v: u64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub(super) fn float<F: Float>(&mut self, v: F) -> &mut Self {
        let f: f64 = v.to_f64_lossless();
        self.buf.extend_from_slice(&f.to_le_bytes());
        self
    }

    pub(super) fn array1<F: Float>(&mut self, a: &Array1<F>) -> &mut Self {
        self.u64(a.len() as u64);
        for &v in a {
            self.float(v);
        }
        self
    }

    pub(super) fn array2<F: Float>(&mut self, a: &Array2<F>) -> &mut Self {
        self.u64(a.nrows() as u64).u64(a.ncols() as u64);
        for &v in a {
            self.float(v);
        }
        self
    }

    /// An optional matrix: a `0`/`1` flag, then the matrix.
    pub(super) fn opt_array2<F: Float>(&mut self, a: Option<&Array2<F>>) -> &mut Self {
        match a {
            Some(a) => self.u64(1).array2(a),
            None => self.u64(0),
        }
    }

    pub(super) fn finish(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.buf)
    }
}

/// Reads the bytes of one value, checking the header and every length.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// Checks the header: magic, version and `tag` (the type `name` in errors).
    pub(super) fn new(bytes: &'a [u8], tag: u8, name: &str) -> Result<Self> {
        if bytes.len() < 6 || &bytes[..4] != MAGIC {
            return Err(parse(0, "not ndlearn statistics (no NDLS header)".into()));
        }
        if bytes[4] != VERSION {
            return Err(parse(
                4,
                format!("format version {} (this build reads {VERSION})", bytes[4]),
            ));
        }
        if bytes[5] != tag {
            return Err(parse(
                5,
                format!("the bytes hold another kind of statistics, not {name}"),
            ));
        }
        Ok(Self { bytes, pos: 6 })
    }

    fn take8(&mut self) -> Result<[u8; 8]> {
        let end = self.pos + 8;
        let chunk = self
            .bytes
            .get(self.pos..end)
            .and_then(|s| <[u8; 8]>::try_from(s).ok())
            .ok_or_else(|| parse(self.pos, "truncated".into()))?;
        self.pos = end;
        Ok(chunk)
    }

    pub(super) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take8()?))
    }

    /// A length that must fit in the remaining bytes (`width` bytes per item).
    fn len(&mut self, width: usize) -> Result<usize> {
        let at = self.pos;
        let n = usize::try_from(self.u64()?).map_err(|_| parse(at, "length overflows".into()))?;
        let remaining = self.bytes.len() - self.pos;
        if n.checked_mul(width).is_none_or(|b| b > remaining) {
            return Err(parse(at, format!("length {n} beyond the end of the bytes")));
        }
        Ok(n)
    }

    pub(super) fn float<F: Float>(&mut self) -> Result<F> {
        Ok(F::cast(f64::from_le_bytes(self.take8()?)))
    }

    pub(super) fn array1<F: Float>(&mut self) -> Result<Array1<F>> {
        let n = self.len(8)?;
        (0..n).map(|_| self.float()).collect()
    }

    pub(super) fn array2<F: Float>(&mut self) -> Result<Array2<F>> {
        let r = self.len(0)?;
        let c = self.len(0)?;
        let at = self.pos;
        let total = r
            .checked_mul(c)
            .filter(|t| {
                t.checked_mul(8)
                    .is_some_and(|b| b <= self.bytes.len() - self.pos)
            })
            .ok_or_else(|| parse(at, format!("{r} × {c} entries beyond the end of the bytes")))?;
        let v: Vec<F> = (0..total).map(|_| self.float()).collect::<Result<_>>()?;
        Array2::from_shape_vec((r, c), v).map_err(|e| parse(at, e.to_string()))
    }

    pub(super) fn opt_array2<F: Float>(&mut self) -> Result<Option<Array2<F>>> {
        let at = self.pos;
        match self.u64()? {
            0 => Ok(None),
            1 => self.array2().map(Some),
            v => Err(parse(at, format!("flag {v} (0 or 1 expected)"))),
        }
    }

    /// Checks that every byte was read.
    pub(super) fn end(&self) -> Result<()> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(parse(self.pos, "trailing bytes".into()))
        }
    }

    /// The error for contents that decode but do not fit together.
    pub(super) fn inconsistent(&self, what: &str) -> Error {
        parse(self.pos, format!("inconsistent statistics: {what}"))
    }
}

fn parse(at: usize, reason: String) -> Error {
    Error::Parse {
        line: 0,
        column: at,
        reason: format!("statistics bytes at offset {at}: {reason}"),
    }
}
