// A clip's chapters inside its published MP3 (issue 34): an ID3v2.3 tag at the front of the file
// with one CHAP frame per chapter (its start and end in milliseconds, a TIT2 sub-frame with its
// title and a WXXX sub-frame with its link) and one CTOC frame, the top-level ordered table of
// contents, naming them in order (https://id3.org/id3v2-chapters-1.0). Apps that read chapters
// from the file (Apple Podcasts, Overcast, Pocket Casts) then show them without the feed's JSON.
//
// Why ID3v2.3 and not 2.4: ffmpeg (libavformat/id3v2.c read_chapter, up to its current release)
// reads a CHAP's sub-frame sizes as plain 32-bit numbers even in an ID3v2.4 tag, where they are
// syncsafe, so it dropped every chapter with a sub-frame of 128 bytes or more (every image) and the
// players and tools built on ffmpeg lost those chapters. In ID3v2.3 a frame's size is a plain number
// for every reader, and the chapters addendum is written for it. Its rules apply: text is Latin-1
// when it fits and else UTF-16 with a byte-order mark (2.3 has no UTF-8), and frames 2.3 does not
// know are not written.
//
// The tag replaces the uploaded file's own ID3v2 tag: that tag's frames are carried over (title,
// artist, artwork…) except its chapters, and the audio after it is streamed, never decoded, so the
// published file is the upload's audio byte for byte after the new tag. An ID3v2.4 tag's frames are
// turned into 2.3's (sizes; UTF-8 and UTF-16BE text as UTF-16; TDRC's year as TYER); frames only 2.4
// has, and frames with 2.4 text whose layout is not known here, are left out rather than copied
// wrong, as is a tag this writer cannot carry over safely (unsynchronised, with an extended header,
// or with compressed or encrypted frames).
//
// Why our own writer and not a library: the two maintained JavaScript tag writers load the whole
// file into memory (node-id3 takes a Buffer) or write only Latin-1 sub-frames, and the tag here is
// five frame kinds. Its size is known before the audio is streamed, so the stored file's size
// (PublishedAudioSizeInBytes, the enclosure's length, byte ranges) is the blob store's count as for
// every other version. It is read back in the tests by ffprobe and music-metadata, written by others.
//
// A chapter's image (its ImageUrl) goes inside its CHAP as the addendum allows (sub-frames "provide
// related material such as URLs and images"): an image stored here (/images/chapter/…) as an APIC
// sub-frame of its bytes, picture type 0 "Other" (the addendum names no type, and a chapter's
// image is none of the covers, icons and performers of the list); an image elsewhere as a WXXX
// sub-frame described "chapter image" with its address (never fetched: the studio does not vouch for
// another host's bytes in its files). It comes before the chapter's own link (a WXXX with no
// description), so a reader that keeps one WXXX per chapter keeps the link.
import type { Chapter } from '../../src/domain/chapters.ts';
import { chapterEnds, isOwnImagePath, normaliseChapters } from '../../src/domain/chapters.ts';
import { IMAGE_KINDS, type ImageKind } from '../../src/domain/artwork.ts';
import type { BlobStore } from './blob-store.ts';
import { imageKeys } from '../images/service.ts';
import { imageFacts, makeVariant } from '../images/variants.ts';

const encoder = new TextEncoder();
/** CTOC counts its entries in one byte: the first 255 chapters are in the table, every one has its CHAP. */
const CTOC_MAX_ENTRIES = 255;

function syncsafe(n: number): Uint8Array {
  return Uint8Array.of((n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f);
}
const readSyncsafe = (b: Uint8Array, at: number) => ((b[at]! & 0x7f) << 21) | ((b[at + 1]! & 0x7f) << 14) | ((b[at + 2]! & 0x7f) << 7) | (b[at + 3]! & 0x7f);
const readUint32 = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
function uint32(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}
function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
/** A Latin-1 string ended by a zero byte (element IDs, MIME types, URLs: ASCII here). */
const latin1 = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0) & 0xff);
const latin1z = (s: string) => concat([latin1(s), Uint8Array.of(0)]);

/** ID3v2.3's text encodings: 0 ISO-8859-1, 1 UTF-16 with a byte-order mark. */
type Encoding = 0 | 1;
const encodingFor = (...texts: string[]): Encoding => (texts.every((t) => /^[\u0000-\u00ff]*$/.test(t)) ? 0 : 1);
/** `text` in `encoding` (UTF-16: the little-endian mark, then its code units). */
function encodeText(text: string, encoding: Encoding): Uint8Array {
  if (encoding === 0) return latin1(text);
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[2 + i * 2] = unit & 0xff;
    out[3 + i * 2] = unit >>> 8;
  }
  return out;
}
/** A string's end in `encoding`: one zero byte, or two for UTF-16. */
const terminator = (encoding: Encoding) => (encoding === 0 ? Uint8Array.of(0) : Uint8Array.of(0, 0));

/** One ID3v2.3 frame: id, its size as a plain 32-bit number, no flags, its data. */
export function frame(id: string, data: Uint8Array): Uint8Array {
  return concat([encoder.encode(id), uint32(data.length), Uint8Array.of(0, 0), data]);
}
/** A text frame: Latin-1 when the text fits, else UTF-16. */
const textFrame = (id: string, text: string) => {
  const encoding = encodingFor(text);
  return frame(id, concat([Uint8Array.of(encoding), encodeText(text, encoding)]));
};
/** A user-defined link: its description (the chapter's own link: none), then the URL in Latin-1. */
const linkFrame = (url: string, description = '') => {
  const encoding = encodingFor(description);
  return frame('WXXX', concat([Uint8Array.of(encoding), encodeText(description, encoding), terminator(encoding), latin1(asciiUrl(url))]));
};

/** The description of the WXXX that names a chapter's image held elsewhere. */
export const CHAPTER_IMAGE_LINK_DESCRIPTION = 'chapter image';
/** APIC picture type 0, "Other". */
const PICTURE_TYPE_OTHER = 0;

/** A chapter's image as the tag carries it. */
export type ChapterPicture = { mimeType: 'image/jpeg' | 'image/png'; bytes: Uint8Array };

/** An attached picture: Latin-1, the MIME type, its type, an empty description, the bytes. */
const pictureFrame = (p: ChapterPicture) => frame('APIC', concat([Uint8Array.of(0), latin1z(p.mimeType), Uint8Array.of(PICTURE_TYPE_OTHER, 0), p.bytes]));

/** The picture of an image stored here: JPEG or PNG by its first bytes (what the image upload admits). */
function pictureOf(bytes: Uint8Array): ChapterPicture | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mimeType: 'image/jpeg', bytes };
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return { mimeType: 'image/png', bytes };
  return null;
}

/**
 * The bytes of a chapter image stored here (/images/{kind}/{id}/{version}): its medium variant
 * (600 px, what a player shows beside the chapter; the large one can weigh megabytes, in every
 * download). While the image job has not made it yet, the same variant is made here from the
 * original (the original itself may be 20 MB). null when the image is gone or not one.
 */
export async function storedChapterPicture(blobs: BlobStore, path: string): Promise<ChapterPicture | null> {
  const [, , kind, id, version] = path.split('/');
  if (!kind || !id || !version || !(IMAGE_KINDS as readonly string[]).includes(kind)) return null;
  const read = async (key: string) => ((await blobs.size(key)) === null ? null : new Uint8Array(await (await blobs.blob(key)).arrayBuffer()));
  const medium = await read(imageKeys.variant(kind as ImageKind, id, version, 'medium'));
  if (medium) return pictureOf(medium);
  const original = await read(imageKeys.original(kind as ImageKind, id, version));
  const picture = original && pictureOf(original);
  if (!picture) return null;
  try {
    return pictureOf((await makeVariant(original, await imageFacts(original, picture.mimeType), 'medium')).bytes);
  } catch {
    // Not decodable after all (the upload's checks let it through): the chapter goes without.
    return null;
  }
}
/** The URL in ASCII (a host in punycode, the rest percent-encoded), as Latin-1 holds it. */
function asciiUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** The CHAP and CTOC frames of the chapters (sorted first), each chapter ending where the next
 *  starts; `pictures`: the images stored here, by ImageUrl (one missing: the chapter has none). */
export function chapterFrames(chapters: readonly Chapter[], durationSeconds: number, pictures: ReadonlyMap<string, ChapterPicture> = new Map()): Uint8Array[] {
  const sorted = normaliseChapters(chapters);
  const ends = chapterEnds(sorted, durationSeconds);
  const ms = (s: number) => Math.max(0, Math.min(0xfffffffe, Math.round(s * 1000)));
  const chaps = sorted.map((ch, i) =>
    frame(
      'CHAP',
      concat([
        latin1z(`chp${i}`),
        uint32(ms(ch.StartSeconds)),
        uint32(ms(ends[i]!)),
        // Byte offsets unknown (0xFFFFFFFF): players seek by the times.
        uint32(0xffffffff),
        uint32(0xffffffff),
        textFrame('TIT2', ch.Title),
        ...imageFrames(ch.ImageUrl, pictures),
        ...(ch.Url ? [linkFrame(ch.Url)] : []),
      ]),
    ),
  );
  const listed = sorted.slice(0, CTOC_MAX_ENTRIES);
  // Flags: top level (0x02) and ordered (0x01).
  const ctoc = frame('CTOC', concat([latin1z('toc'), Uint8Array.of(0x03, listed.length), ...listed.map((_, i) => latin1z(`chp${i}`))]));
  return [ctoc, ...chaps];
}

function imageFrames(imageUrl: string | null | undefined, pictures: ReadonlyMap<string, ChapterPicture>): Uint8Array[] {
  if (!imageUrl) return [];
  if (!isOwnImagePath(imageUrl)) return [linkFrame(imageUrl, CHAPTER_IMAGE_LINK_DESCRIPTION)];
  const picture = pictures.get(imageUrl);
  return picture ? [pictureFrame(picture)] : [];
}

/** The frames of the ID3v2 tag at the front of `head` that may be carried over (chapters left out),
 *  and the tag's length in bytes (0 when the file has none). */
export function existingTag(head: Uint8Array): { length: number; frames: Uint8Array[] } {
  if (head.length < 10 || head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return { length: 0, frames: [] };
  const major = head[3]!;
  const flags = head[5]!;
  const length = 10 + readSyncsafe(head, 6) + (major === 4 && flags & 0x10 ? 10 : 0);
  // Unsynchronised or with an extended header: not carried over (its frames would need undoing).
  if ((major !== 3 && major !== 4) || flags & 0xc0 || head.length < length) return { length, frames: [] };
  const frames: Uint8Array[] = [];
  let at = 10;
  const end = length - (major === 4 && flags & 0x10 ? 10 : 0);
  while (at + 10 <= end && head[at] !== 0) {
    const id = String.fromCharCode(...head.subarray(at, at + 4));
    const size = major === 4 ? readSyncsafe(head, at + 4) : readUint32(head, at + 4);
    const formatFlags = head[at + 9]!;
    if (!/^[A-Z0-9]{4}$/.test(id) || at + 10 + size > end) break;
    // v2.3: compression 0x80, encryption 0x40, grouping 0x20; v2.4: grouping 0x40, compression 0x08,
    // encryption 0x04, unsynchronisation 0x02, data length 0x01. Such frames are left out.
    const unsafe = major === 3 ? formatFlags & 0xe0 : formatFlags & 0x4f;
    if (!unsafe && id !== 'CHAP' && id !== 'CTOC') {
      const data = head.subarray(at + 10, at + 10 + size);
      const carried = major === 3 ? frame(id, data) : frameFromV24(id, data);
      if (carried) frames.push(carried);
    }
    at += 10 + size;
  }
  return { length, frames };
}

/** Frames ID3v2.4 brought in, which 2.3 readers do not know (TDRC is turned into TYER instead). */
const V24_ONLY = new Set(['ASPI', 'EQU2', 'RVA2', 'SEEK', 'SIGN', 'TDEN', 'TDOR', 'TDRL', 'TDTG', 'TIPL', 'TMCL', 'TMOO', 'TPRO', 'TSOA', 'TSOP', 'TSOT', 'TSST']);

/** Text of one of ID3v2.4's encodings: 0 ISO-8859-1, 1 UTF-16 with its mark, 2 UTF-16BE, 3 UTF-8. */
function decodeText(bytes: Uint8Array, encoding: number): string {
  if (encoding === 0) return Array.from(bytes, (b) => String.fromCharCode(b)).join('');
  if (encoding === 3) return new TextDecoder('utf-8').decode(bytes);
  if (encoding === 2 || (bytes[0] === 0xfe && bytes[1] === 0xff)) return new TextDecoder('utf-16be').decode(bytes);
  // UTF-16 with the little-endian mark (or none: what writers without one mean); the mark is dropped.
  return new TextDecoder('utf-16le').decode(bytes);
}

/** Where a string of `encoding` starting at `from` ends: its terminator's index and the index after it. */
function stringEnd(data: Uint8Array, from: number, encoding: number): { end: number; next: number } {
  if (encoding === 0 || encoding === 3) {
    const end = data.indexOf(0, from);
    return end < 0 ? { end: data.length, next: data.length } : { end, next: end + 1 };
  }
  for (let i = from; i + 1 < data.length; i += 2) if (data[i] === 0 && data[i + 1] === 0) return { end: i, next: i + 2 };
  return { end: data.length, next: data.length };
}

/**
 * An ID3v2.4 frame as ID3v2.3 has it, or null to leave it out (see the header): its text in 2.3's
 * encodings (the several values 2.4 separates by zero bytes joined by '/', as 2.3 does), TDRC as
 * TYER (its year), frames only 2.4 knows left out. A frame in Latin-1 or UTF-16 with its mark is
 * the same in both versions, whatever its layout.
 */
function frameFromV24(id: string, data: Uint8Array): Uint8Array | null {
  if (V24_ONLY.has(id)) return null;
  if (id === 'TDRC') {
    const year = /^\d{4}/.exec(data.length > 0 ? decodeText(data.subarray(1), data[0]!) : '')?.[0];
    return year ? textFrame('TYER', year) : null;
  }
  const encoded = id[0] === 'T' || ['WXXX', 'COMM', 'USLT', 'APIC', 'SYLT', 'GEOB', 'USER', 'OWNE', 'COMR'].includes(id);
  const encoding = data[0];
  if (!encoded || encoding === 0 || encoding === 1) return frame(id, data);
  if (encoding === undefined || encoding > 3) return null;
  const text = (from: number, to: number) => decodeText(data.subarray(from, to), encoding);
  if (id === 'TXXX' || id === 'WXXX') {
    const d = stringEnd(data, 1, encoding);
    const description = text(1, d.end);
    const rest = data.subarray(d.next);
    if (id === 'WXXX') {
      const e = encodingFor(description);
      return frame(id, concat([Uint8Array.of(e), encodeText(description, e), terminator(e), rest]));
    }
    const value = text(d.next, data.length).replace(/\0+$/, '').replaceAll('\0', '/');
    const e = encodingFor(description, value);
    return frame(id, concat([Uint8Array.of(e), encodeText(description, e), terminator(e), encodeText(value, e)]));
  }
  if (id[0] === 'T') {
    const value = text(1, data.length).replace(/\0+$/, '').replaceAll('\0', '/');
    const e = encodingFor(value);
    return frame(id, concat([Uint8Array.of(e), encodeText(value, e)]));
  }
  if (id === 'COMM' || id === 'USLT') {
    const d = stringEnd(data, 4, encoding);
    const description = text(4, d.end);
    const value = text(d.next, data.length).replace(/\0+$/, '');
    const e = encodingFor(description, value);
    return frame(id, concat([Uint8Array.of(e), data.subarray(1, 4), encodeText(description, e), terminator(e), encodeText(value, e)]));
  }
  if (id === 'APIC') {
    const mime = stringEnd(data, 1, 0);
    const d = stringEnd(data, mime.next + 1, encoding);
    const description = text(mime.next + 1, d.end);
    const e = encodingFor(description);
    return frame(id, concat([Uint8Array.of(e), data.subarray(1, mime.next + 1), encodeText(description, e), terminator(e), data.subarray(d.next)]));
  }
  // UTF-8 or UTF-16BE in a layout not known here: left out rather than copied wrong.
  return null;
}

/** A whole ID3v2.3 tag of these frames (the tag's own size is syncsafe in every version). */
export function id3Tag(frames: readonly Uint8Array[]): Uint8Array {
  const body = concat(frames);
  return concat([Uint8Array.of(0x49, 0x44, 0x33, 3, 0, 0), syncsafe(body.length), body]);
}

/** Reads enough of the file's front for its ID3v2 tag (at most 16 MB: a tag with large artwork). */
async function head(audio: Blob): Promise<Uint8Array> {
  const first = new Uint8Array(await audio.slice(0, 10).arrayBuffer());
  if (first.length < 10 || first[0] !== 0x49 || first[1] !== 0x44 || first[2] !== 0x33) return first;
  const length = Math.min(10 + readSyncsafe(first, 6) + 10, 16 * 1024 * 1024, audio.size);
  return new Uint8Array(await audio.slice(0, length).arrayBuffer());
}

/** The MP3 with its chapters: a new tag (the old one's other frames and these chapters' frames),
 *  then the audio after the old tag, streamed. */
export async function mp3WithChapters(
  audio: Blob,
  chapters: readonly Chapter[],
  durationSeconds: number,
  picture: (path: string) => Promise<ChapterPicture | null> = async () => null,
): Promise<ReadableStream<Uint8Array>> {
  const old = existingTag(await head(audio));
  const pictures = new Map<string, ChapterPicture>();
  for (const path of new Set(chapters.map((ch) => ch.ImageUrl).filter((u): u is string => !!u && isOwnImagePath(u)))) {
    const p = await picture(path);
    if (p) pictures.set(path, p);
  }
  const tag = id3Tag([...old.frames, ...chapterFrames(chapters, durationSeconds, pictures)]);
  const rest = audio.slice(Math.min(old.length, audio.size)).stream().getReader();
  let sentTag = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentTag) {
        sentTag = true;
        controller.enqueue(tag);
        return;
      }
      const { done, value } = await rest.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => rest.cancel(reason),
  });
}
