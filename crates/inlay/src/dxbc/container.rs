//! Reading a DXBC container: header, chunk table, and the chunks callers ask for.

use super::dxil::{DigestKind, DxilProgram, FeatureFlags, ImplicitInput, Psv0, ShaderHash};
use super::sigchunk::{SignatureKind, parse_signature_at};
use super::version::{Level9Bytecode, ShaderVersion};
use super::{
    CONTAINER_VERSION, DXIL_MAX_CONTAINER_SIZE, DxbcError, FourCC, HEADER_SIZE, Signature,
    checksum, read_u32,
};

/// A parsed DXBC container borrowing the blob.
///
/// [`Container::parse`] validates the header and every chunk's offset and size once, without
/// allocating; the accessors then read chunks straight from the blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Container<'a> {
    /// The container bytes up to the declared size.
    bytes: &'a [u8],
    /// Number of chunks (validated: the offset table and every chunk fit in `bytes`).
    chunk_count: u32,
    /// The layout rules the container was checked against.
    rules: ContainerRules,
}

/// Which layout rules a container is checked against: the D3D10/D3D11 runtime's (fxc's
/// output, createinputlayout-rules.md R31) or dxc's `IsValidDxilContainer`, which is what a
/// D3D12 runtime reading a DXIL container goes by (d3d12-rules.md P2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContainerRules {
    /// Version exactly 1, every chunk offset a multiple of 4, chunks anywhere after the
    /// offset table (they may overlap).
    Fxc,
    /// Major version 1 (any minor), at most 2 GiB, the parts one after the other from the end
    /// of the offset table with no gap or overlap and ending exactly at the declared size;
    /// offsets need no alignment (dxc writes parts of any length).
    Dxc,
}

impl ContainerRules {
    /// `"fxc"` or `"dxc"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ContainerRules::Fxc => "fxc",
            ContainerRules::Dxc => "dxc",
        }
    }

    /// The rules a runtime applies: D3D10 and D3D11 the fxc rules, D3D12 dxc's for every
    /// container (fxc's DXBC output satisfies them too: every blob of the shared fxc corpus
    /// does; d3d12-rules.md P2).
    pub const fn for_api(api: crate::target::Api) -> ContainerRules {
        if api.is_d3d12() {
            ContainerRules::Dxc
        } else {
            ContainerRules::Fxc
        }
    }

    /// [`ContainerRules::Dxc`] when the offset table names a part tagged `DXIL` (looked up
    /// without any other check; allocates nothing), else [`ContainerRules::Fxc`].
    pub fn detect(bytes: &[u8]) -> ContainerRules {
        let size = read_u32(bytes, 24).map_or(0, |s| (s as usize).min(bytes.len()));
        let bytes = &bytes[..size];
        let count = read_u32(bytes, 28).unwrap_or(0) as usize;
        let has_dxil = (0..count)
            .map_while(|i| read_u32(bytes, HEADER_SIZE + 4 * i))
            .any(|off| {
                let off = off as usize;
                bytes.get(off..off.saturating_add(4)) == Some(&FourCC::DXIL.0[..])
            });
        if has_dxil {
            ContainerRules::Dxc
        } else {
            ContainerRules::Fxc
        }
    }
}

/// One chunk of a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's tag (`ISGN`, `SHEX`, …).
    pub tag: FourCC,
    /// Byte offset of the chunk (its tag) in the blob.
    pub offset: usize,
    /// The chunk data (after the 8-byte tag and size).
    pub data: &'a [u8],
}

impl Chunk<'_> {
    /// Byte offset of the chunk data in the blob (`offset + 8`).
    pub fn data_offset(&self) -> usize {
        self.offset + 8
    }
}

/// Iterator over a container's chunks in offset-table order ([`Container::chunks`]).
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    container: Container<'a>,
    next: u32,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Chunk<'a>;

    fn next(&mut self) -> Option<Chunk<'a>> {
        while self.next < self.container.chunk_count {
            let i = self.next;
            self.next += 1;
            // Every entry was validated by `parse`, so this is always `Some`.
            if let Some(c) = self.container.chunk_at(i) {
                return Some(c);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.container.chunk_count - self.next) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Chunks<'_> {}

impl<'a> Container<'a> {
    /// Parses and validates a container under fxc's rules, the ones the D3D10 and D3D11
    /// runtimes apply (createinputlayout-rules.md R31; [`ContainerRules::Fxc`]).
    ///
    /// Checks, in this order: at least 32 bytes; magic `DXBC`; version 1; size field at least
    /// 32 and at most `bytes.len()` (bytes after the declared size are ignored); the offset table
    /// (4 bytes per chunk) fits in the declared size; every chunk offset is a multiple of 4, lies
    /// after the offset table and leaves room for the 8-byte chunk header; every chunk's data
    /// fits. The digest is *not* checked here (see [`Container::checksum_matches`]). Chunks may
    /// overlap each other; nothing else about their contents is checked until asked for.
    ///
    /// Allocates nothing.
    pub fn parse(bytes: &'a [u8]) -> Result<Container<'a>, DxbcError> {
        Container::parse_with(bytes, ContainerRules::Fxc)
    }

    /// Parses a container under the rules [`ContainerRules::detect`] picks: dxc's for a DXIL
    /// container, fxc's otherwise. This is what `inlay shader` reads any blob with.
    pub fn parse_detected(bytes: &'a [u8]) -> Result<Container<'a>, DxbcError> {
        Container::parse_with(bytes, ContainerRules::detect(bytes))
    }

    /// Parses a container under the rules the runtime of `api` applies
    /// ([`ContainerRules::for_api`]).
    pub fn parse_for(bytes: &'a [u8], api: crate::target::Api) -> Result<Container<'a>, DxbcError> {
        Container::parse_with(bytes, ContainerRules::for_api(api))
    }

    /// Parses and validates a container under `rules`. [`ContainerRules::Fxc`] is
    /// [`Container::parse`]; [`ContainerRules::Dxc`] follows dxc's `IsValidDxilContainer`:
    /// at least 32 bytes; magic `DXBC`; major version (bytes 20..22) 1; size field at least 32,
    /// at most the blob and at most 2 GiB; the offset table fits; each part starts where the
    /// previous one ended (the first right after the offset table), its 8-byte header and data
    /// fit; the last part ends exactly at the declared size. Allocates nothing.
    pub fn parse_with(bytes: &'a [u8], rules: ContainerRules) -> Result<Container<'a>, DxbcError> {
        if bytes.len() < HEADER_SIZE {
            return Err(DxbcError::TooShort { len: bytes.len() });
        }
        let magic = FourCC([bytes[0], bytes[1], bytes[2], bytes[3]]);
        if magic != FourCC::DXBC {
            return Err(DxbcError::BadMagic { found: magic });
        }
        let version = read_u32(bytes, 20).unwrap_or(0);
        match rules {
            ContainerRules::Fxc if version != CONTAINER_VERSION => {
                return Err(DxbcError::BadVersion { found: version });
            }
            ContainerRules::Dxc if version & 0xffff != 1 => {
                return Err(DxbcError::BadDxilVersion {
                    major: version & 0xffff,
                    minor: version >> 16,
                });
            }
            _ => {}
        }
        let declared = read_u32(bytes, 24).unwrap_or(0);
        if (declared as usize) < HEADER_SIZE || declared as usize > bytes.len() {
            return Err(DxbcError::BadSize {
                declared,
                actual: bytes.len(),
            });
        }
        if rules == ContainerRules::Dxc && declared > DXIL_MAX_CONTAINER_SIZE {
            return Err(DxbcError::DxilContainerTooLarge { declared });
        }
        let bytes = &bytes[..declared as usize];
        let size = bytes.len();
        let count = read_u32(bytes, 28).unwrap_or(0);
        let needed = HEADER_SIZE as u64 + 4 * u64::from(count);
        if needed > size as u64 {
            return Err(DxbcError::ChunkCountTooLarge {
                count,
                needed,
                size,
            });
        }
        let header_end = needed as usize;
        // dxc rules: where the next part must start.
        let mut next_part = header_end as u64;
        for index in 0..count {
            let at = HEADER_SIZE + 4 * index as usize;
            let offset = read_u32(bytes, at).unwrap_or(0);
            let off = offset as usize;
            if rules == ContainerRules::Dxc && u64::from(offset) != next_part {
                return Err(DxbcError::PartNotContiguous {
                    index,
                    at,
                    offset,
                    expected: next_part,
                });
            }
            if off < header_end {
                return Err(DxbcError::ChunkOffsetInHeader {
                    index,
                    at,
                    offset,
                    header_end,
                });
            }
            if rules == ContainerRules::Fxc && !off.is_multiple_of(4) {
                return Err(DxbcError::ChunkOffsetUnaligned { index, at, offset });
            }
            if off as u64 + 8 > size as u64 {
                return Err(DxbcError::ChunkHeaderPastEnd {
                    index,
                    at,
                    offset,
                    size,
                });
            }
            let len = read_u32(bytes, off + 4).unwrap_or(0);
            if off as u64 + 8 + u64::from(len) > size as u64 {
                let tag = FourCC([bytes[off], bytes[off + 1], bytes[off + 2], bytes[off + 3]]);
                return Err(DxbcError::ChunkDataPastEnd {
                    index,
                    tag,
                    at: off + 4,
                    len,
                    size,
                });
            }
            next_part = off as u64 + 8 + u64::from(len);
        }
        if rules == ContainerRules::Dxc && next_part != size as u64 {
            return Err(DxbcError::PartsEndBeforeSize {
                end: next_part,
                size,
            });
        }
        Ok(Container {
            bytes,
            chunk_count: count,
            rules,
        })
    }

    /// The layout rules the container was checked against.
    pub fn rules(&self) -> ContainerRules {
        self.rules
    }

    /// The container bytes, up to its declared size.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The declared (and validated) size in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// The 16-byte digest stored at offset 4.
    pub fn digest(&self) -> [u8; 16] {
        let mut d = [0u8; 16];
        d.copy_from_slice(&self.bytes[4..20]);
        d
    }

    /// The digest recomputed from the contents ([`checksum`]).
    pub fn computed_digest(&self) -> [u8; 16] {
        checksum(self.bytes)
    }

    /// Whether the stored digest equals the recomputed one. Two corpus blobs built for the
    /// debug layer store something else (corpus README, *Anomalies*).
    pub fn checksum_matches(&self) -> bool {
        self.digest() == self.computed_digest()
    }

    /// Number of chunks.
    pub fn chunk_count(&self) -> usize {
        self.chunk_count as usize
    }

    /// The chunks in offset-table order.
    pub fn chunks(&self) -> Chunks<'a> {
        Chunks {
            container: *self,
            next: 0,
        }
    }

    /// The first chunk with this tag (offset-table order), if any.
    pub fn chunk(&self, tag: impl Into<FourCC>) -> Option<Chunk<'a>> {
        let tag = tag.into();
        self.chunks().find(|c| c.tag == tag)
    }

    /// Whether a chunk with this tag is present.
    pub fn has_chunk(&self, tag: impl Into<FourCC>) -> bool {
        self.chunk(tag).is_some()
    }

    fn chunk_at(&self, index: u32) -> Option<Chunk<'a>> {
        let off = read_u32(self.bytes, HEADER_SIZE + 4 * index as usize)? as usize;
        let tag = self.bytes.get(off..off.checked_add(4)?)?;
        let len = read_u32(self.bytes, off + 4)? as usize;
        let start = off + 8;
        let data = self.bytes.get(start..start.checked_add(len)?)?;
        Some(Chunk {
            tag: FourCC([tag[0], tag[1], tag[2], tag[3]]),
            offset: off,
            data,
        })
    }

    /// The first chunk of the earliest kind in `kinds` (priority order) that is present, found
    /// in one pass over the chunk table.
    fn first_of(&self, kinds: &[SignatureKind]) -> Option<(SignatureKind, Chunk<'a>)> {
        let mut best: Option<(usize, SignatureKind, Chunk<'a>)> = None;
        for c in self.chunks() {
            if let Some(rank) = kinds.iter().position(|k| k.tag() == c.tag)
                && best.as_ref().is_none_or(|b| rank < b.0)
            {
                best = Some((rank, kinds[rank], c));
                if rank == 0 {
                    break;
                }
            }
        }
        best.map(|(_, k, c)| (k, c))
    }

    /// The chunk [`Container::input_signature`] reads: `ISG1` when present, else `ISGN`.
    pub fn input_signature_chunk(&self) -> Option<(SignatureKind, Chunk<'a>)> {
        self.first_of(&[SignatureKind::Isg1, SignatureKind::Isgn])
    }

    /// The chunk [`Container::output_signature`] reads: `OSG1`, else `OSG5`, else `OSGN`.
    pub fn output_signature_chunk(&self) -> Option<(SignatureKind, Chunk<'a>)> {
        self.first_of(&[
            SignatureKind::Osg1,
            SignatureKind::Osg5,
            SignatureKind::Osgn,
        ])
    }

    /// The chunk [`Container::patch_constant_signature`] reads: `PSG1`, else `PCSG`.
    pub fn patch_constant_signature_chunk(&self) -> Option<(SignatureKind, Chunk<'a>)> {
        self.first_of(&[SignatureKind::Psg1, SignatureKind::Pcsg])
    }

    /// Parses the signature chunk of one kind, if present.
    pub fn signature(&self, kind: SignatureKind) -> Result<Option<Signature>, DxbcError> {
        match self.chunk(kind.tag()) {
            Some(c) => parse_signature_at(kind, c.data, c.data_offset()).map(Some),
            None => Ok(None),
        }
    }

    fn parse_chosen(
        chosen: Option<(SignatureKind, Chunk<'a>)>,
    ) -> Result<Option<Signature>, DxbcError> {
        match chosen {
            Some((k, c)) => parse_signature_at(k, c.data, c.data_offset()).map(Some),
            None => Ok(None),
        }
    }

    /// The input signature (R29–R30): `ISG1` when present (it carries stream and minimum
    /// precision, a superset of `ISGN`; fxc writes only one of the two), else `ISGN`; `Ok(None)`
    /// when the container has neither (R32: what that means is the caller's decision).
    pub fn input_signature(&self) -> Result<Option<Signature>, DxbcError> {
        Self::parse_chosen(self.input_signature_chunk())
    }

    /// The output signature: `OSG1`, else `OSG5`, else `OSGN`.
    pub fn output_signature(&self) -> Result<Option<Signature>, DxbcError> {
        Self::parse_chosen(self.output_signature_chunk())
    }

    /// The patch-constant signature (hull-shader output, domain-shader input): `PSG1`, else
    /// `PCSG`.
    pub fn patch_constant_signature(&self) -> Result<Option<Signature>, DxbcError> {
        Self::parse_chosen(self.patch_constant_signature_chunk())
    }

    /// Stage and shader model from the first token of the `SHEX` (else `SHDR`) chunk; `None`
    /// when there is no program chunk (signature-only blobs), it is shorter than 4 bytes, or its
    /// program type is not one of the six stages.
    pub fn shader_version(&self) -> Option<ShaderVersion> {
        let c = self
            .chunk(FourCC::SHEX)
            .or_else(|| self.chunk(FourCC::SHDR))?;
        ShaderVersion::from_token(read_u32(c.data, 0)?)
    }

    /// The `DXIL` part's program header, if the container has one (an error when the part
    /// is malformed).
    pub fn dxil_program(&self) -> Option<Result<DxilProgram, DxbcError>> {
        self.chunk(FourCC::DXIL)
            .map(|c| DxilProgram::parse(c.data, c.data_offset()))
    }

    /// The `PSV0` part, if any.
    pub fn psv0(&self) -> Option<Result<Psv0, DxbcError>> {
        self.chunk(FourCC::PSV0)
            .map(|c| Psv0::parse(c.data, c.data_offset()))
    }

    /// The `HASH` part, if any.
    pub fn shader_hash(&self) -> Option<Result<ShaderHash, DxbcError>> {
        self.chunk(FourCC::HASH)
            .map(|c| ShaderHash::parse(c.data, c.data_offset()))
    }

    /// The `SFI0` feature flags, if any.
    pub fn feature_flags(&self) -> Option<Result<FeatureFlags, DxbcError>> {
        self.chunk(FourCC::SFI0)
            .map(|c| FeatureFlags::parse(c.data, c.data_offset()))
    }

    /// What the stored digest is (d3d12-rules.md P3).
    pub fn digest_kind(&self) -> DigestKind {
        DigestKind::classify(self.digest(), self.computed_digest())
    }

    /// The system values the shader reads outside its signature (`SV_ViewID`, the SM 6.8
    /// start locations), from PSV0's `UsesViewID` and the `SFI0` flags (P7); unreadable
    /// parts count as absent.
    pub fn implicit_inputs(&self) -> Vec<ImplicitInput> {
        let flags = self
            .feature_flags()
            .and_then(Result::ok)
            .unwrap_or_default();
        let view_id = flags.has(FeatureFlags::VIEW_ID)
            || self
                .psv0()
                .and_then(Result::ok)
                .and_then(|p| p.uses_view_id())
                .unwrap_or(false);
        let mut out = Vec::new();
        if view_id {
            out.push(ImplicitInput::ViewId);
        }
        if flags.has(FeatureFlags::EXTENDED_COMMAND_INFO) {
            out.push(ImplicitInput::StartLocations);
        }
        out
    }

    /// The stage's name: from the `SHEX`/`SHDR` program token (`vertex`, `pixel`, …) or else
    /// the `DXIL` program header (which adds `library`, `mesh`, `amplification`, …); `None`
    /// without a readable program.
    pub fn stage_name(&self) -> Option<String> {
        if let Some(v) = self.shader_version() {
            return Some(v.stage.name().to_string());
        }
        let p = self.dxil_program()?.ok()?;
        Some(p.kind().to_string())
    }

    /// Whether the container embeds Direct3D 9 bytecode for feature levels 9_x (an `Aon9`
    /// chunk).
    pub fn has_level9_bytecode(&self) -> bool {
        self.has_chunk(FourCC::AON9)
    }

    /// The embedded level-9 program (`Aon9` chunk), if present.
    pub fn level9_bytecode(&self) -> Option<Level9Bytecode> {
        self.chunk(FourCC::AON9)
            .map(|c| Level9Bytecode::from_chunk_data(c.data))
    }

    /// The shader model as the corpus records spell it: `4_0`, `4_1`, `5_0`, `5_1`, `6_0` …
    /// (from a `DXIL` program header), and for
    /// `4_0` programs with an `Aon9` chunk `4_0_level_9_1` (embedded `vs_2_0`/`ps_2_0`),
    /// `4_0_level_9_3` (embedded `vs_2_x`/`ps_2_x`) or `4_0_level_9_x` (anything else).
    /// `None` without a readable program version.
    pub fn shader_model_string(&self) -> Option<String> {
        let Some(v) = self.shader_version() else {
            return Some(self.dxil_program()?.ok()?.shader_model());
        };
        if let (4, 0, Some(l9)) = (v.major, v.minor, self.level9_bytecode()) {
            return Some(format!("4_0_level_{}", l9.feature_level_suffix()));
        }
        Some(format!("{}_{}", v.major, v.minor))
    }

    /// The fxc target profile the program was compiled for: stage prefix and
    /// [`Container::shader_model_string`], e.g. `vs_5_0`, `ps_4_0_level_9_3`. `None` without a
    /// readable program version.
    pub fn profile(&self) -> Option<String> {
        let Some(v) = self.shader_version() else {
            return Some(self.dxil_program()?.ok()?.profile());
        };
        Some(format!(
            "{}_{}",
            v.stage.profile_prefix(),
            self.shader_model_string()?
        ))
    }

    /// Rebuilds the container from its chunks with [`super::write_container`] (canonical
    /// layout: offset table, then the chunks in table order, each 4-byte aligned) and a freshly
    /// computed digest. For fxc output with a valid digest this reproduces the blob byte for
    /// byte.
    ///
    /// # Panics
    ///
    /// When the rewritten container would exceed 4 GiB, which a hostile container can ask for
    /// (chunk offsets may all point at one large chunk, and each copy is written out: see
    /// [`Container::rewritten_size`]). Use [`Container::try_rewrite`] on untrusted input.
    pub fn rewrite(&self) -> Vec<u8> {
        let chunks: Vec<([u8; 4], &[u8])> = self.chunks().map(|c| (c.tag.0, c.data)).collect();
        super::write_container(&chunks)
    }

    /// Size in bytes of the container [`Container::rewrite`] builds: the header and offset
    /// table, then each chunk's 8-byte header and data padded to 4 bytes. Computed without
    /// allocating. Chunks may overlap, so this can be far larger than the container (up to
    /// about size²/4 bytes for a container of `size` bytes).
    pub fn rewritten_size(&self) -> u64 {
        HEADER_SIZE as u64
            + self
                .chunks()
                .map(|c| 4 + 8 + (c.data.len() as u64).next_multiple_of(4))
                .sum::<u64>()
    }

    /// [`Container::rewrite`] for untrusted input: refuses, before allocating, a rewrite larger
    /// than `limit` bytes or than the 4 GiB a container can describe
    /// ([`DxbcError::RewriteTooLarge`]).
    pub fn try_rewrite(&self, limit: u64) -> Result<Vec<u8>, DxbcError> {
        let size = self.rewritten_size();
        let limit = limit.min(u64::from(u32::MAX));
        if size > limit {
            return Err(DxbcError::RewriteTooLarge { size, limit });
        }
        Ok(self.rewrite())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        ComponentType, MinPrecision, ShaderStage, SignatureElement, SystemValue, write_container,
        write_signature_chunk,
    };
    use super::*;

    fn sig(name: &str, stream: u32, mp: u32) -> Signature {
        Signature {
            elements: vec![SignatureElement {
                stream,
                semantic_name: name.to_string(),
                semantic_index: 0,
                system_value: SystemValue::UNDEFINED,
                component_type: ComponentType::FLOAT32,
                register: 0,
                mask: 0xf,
                read_write_mask: 0xf,
                min_precision: MinPrecision(mp),
            }],
        }
    }

    /// With both variants present the richer one wins: ISG1 over ISGN, OSG1 over OSG5 over
    /// OSGN, PSG1 over PCSG — whatever the chunk order (docs/notes/dxbc.md).
    #[test]
    fn richer_signature_chunks_are_preferred() {
        let isgn = write_signature_chunk(SignatureKind::Isgn, &sig("A", 0, 0));
        let isg1 = write_signature_chunk(SignatureKind::Isg1, &sig("B", 0, 1));
        let osgn = write_signature_chunk(SignatureKind::Osgn, &sig("C", 0, 0));
        let osg5 = write_signature_chunk(SignatureKind::Osg5, &sig("D", 1, 0));
        let osg1 = write_signature_chunk(SignatureKind::Osg1, &sig("E", 2, 1));
        let pcsg = write_signature_chunk(SignatureKind::Pcsg, &sig("F", 0, 0));
        let psg1 = write_signature_chunk(SignatureKind::Psg1, &sig("G", 0, 5));
        let blob = write_container(&[
            (*b"ISGN", &isgn),
            (*b"OSGN", &osgn),
            (*b"PCSG", &pcsg),
            (*b"ISG1", &isg1),
            (*b"OSG5", &osg5),
            (*b"PSG1", &psg1),
        ]);
        let c = Container::parse(&blob).unwrap();
        assert_eq!(c.input_signature().unwrap().unwrap(), sig("B", 0, 1));
        assert_eq!(c.output_signature().unwrap().unwrap(), sig("D", 1, 0));
        assert_eq!(
            c.patch_constant_signature().unwrap().unwrap(),
            sig("G", 0, 5)
        );
        assert_eq!(
            c.signature(SignatureKind::Isgn).unwrap().unwrap(),
            sig("A", 0, 0)
        );
        let blob = write_container(&[(*b"OSG1", &osg1), (*b"OSG5", &osg5)]);
        let c = Container::parse(&blob).unwrap();
        assert_eq!(c.output_signature().unwrap().unwrap(), sig("E", 2, 1));
        assert_eq!(c.input_signature().unwrap(), None);
        assert_eq!(c.shader_version(), None);
        assert_eq!(c.shader_model_string(), None);
    }

    #[test]
    fn version_tokens_and_level9() {
        let prog =
            |tok: u32| -> Vec<u8> { [tok, 2].iter().flat_map(|w| w.to_le_bytes()).collect() };
        // Aon9 data: size, 0xFFFE0200, program size, program offset 16, then the DX9 token.
        let aon9 = |tok: u32| -> Vec<u8> {
            [20u32, 0xfffe_0200, 4, 16, tok]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect()
        };
        type Case = (
            u32,
            Option<u32>,
            &'static str,
            ShaderStage,
            Option<&'static str>,
        );
        let cases: [Case; 7] = [
            (0x0001_0040, None, "4_0", ShaderStage::Vertex, None),
            (0x0000_0041, None, "4_1", ShaderStage::Pixel, None),
            (0x0003_0050, None, "5_0", ShaderStage::Hull, None),
            (0x0005_0051, None, "5_1", ShaderStage::Compute, None),
            (
                0x0001_0040,
                Some(0xfffe_0200),
                "4_0_level_9_1",
                ShaderStage::Vertex,
                Some("vs_2_0"),
            ),
            (
                0x0000_0040,
                Some(0xffff_0201),
                "4_0_level_9_3",
                ShaderStage::Pixel,
                Some("ps_2_x"),
            ),
            (
                0x0001_0040,
                Some(0xfffe_0300),
                "4_0_level_9_x",
                ShaderStage::Vertex,
                Some("vs_3_0"),
            ),
        ];
        for (tok, l9, model, stage, profile) in cases {
            let p = prog(tok);
            let a = l9.map(aon9);
            let mut chunks: Vec<([u8; 4], &[u8])> = vec![(*b"SHEX", &p)];
            if let Some(a) = &a {
                chunks.insert(0, (*b"Aon9", a));
            }
            let blob = write_container(&chunks);
            let c = Container::parse(&blob).unwrap();
            assert_eq!(c.shader_model_string().as_deref(), Some(model), "{tok:#x}");
            assert_eq!(c.shader_version().unwrap().stage, stage);
            assert_eq!(c.shader_version().unwrap().token(), tok);
            assert_eq!(c.has_level9_bytecode(), l9.is_some());
            assert_eq!(
                c.level9_bytecode().and_then(|l| l.profile()).as_deref(),
                profile
            );
        }
        // Unknown program type, and an Aon9 chunk whose program offset points outside it.
        let p = prog(0x0007_0050);
        let bad = [20u32, 0xfffe_0200, 4, 400]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>();
        let blob = write_container(&[(*b"Aon9", &bad), (*b"SHDR", &p)]);
        let c = Container::parse(&blob).unwrap();
        assert_eq!(c.shader_version(), None);
        assert_eq!(c.level9_bytecode().unwrap().version_token, None);
        assert_eq!(c.level9_bytecode().unwrap().feature_level_suffix(), "9_x");
    }
}
