/**
 * Images and PDFs for `read`, recognised by their magic bytes, never by extension. An image is
 * normalised with sharp before the model sees it: EXIF orientation applied, fitted inside
 * `maxDimension` × `maxDimension` without enlarging, encoded as PNG, and when that base64 is over
 * `maxBase64Bytes`, as JPEG at falling qualities (flattened on white) until it fits. Animated
 * images keep their first frame. A PDF is passed through as it is.
 */
export * as ReadMedia from "./media.js"

import type sharpModule from "sharp"

/** JPEG qualities tried in order when the PNG is too large. */
export const JPEG_QUALITIES: ReadonlyArray<number> = [85, 70, 55, 40]

/** The longest magic prefix checked (RIFF....WEBP). */
export const MAGIC_BYTES = 12

type Pipeline = ReturnType<typeof sharpModule>

/** sharp (a native image library) is loaded on the first image, not by every run that reads text. */
const loadSharp = async (): Promise<typeof sharpModule> => (await import("sharp")).default

export type Kind = "png" | "jpeg" | "gif" | "webp" | "pdf"

const startsWith = (head: Buffer, bytes: ReadonlyArray<number>, at = 0) => bytes.every((byte, index) => head[at + index] === byte)
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0))

const SIGNATURES: ReadonlyArray<readonly [Kind, (head: Buffer) => boolean]> = [
  ["png", (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ["jpeg", (head) => startsWith(head, [0xff, 0xd8, 0xff])],
  ["gif", (head) => startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))],
  ["webp", (head) => startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)],
  ["pdf", (head) => startsWith(head, ascii("%PDF"))],
]

/** The media kind the first bytes of a file announce, if any. */
export const detect = (head: Buffer): Kind | undefined => SIGNATURES.find(([, matches]) => matches(head))?.[0]

export const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4

export interface Limits {
  readonly maxDimension: number
  readonly maxBase64Bytes: number
}

export type Normalised =
  | { readonly type: "image"; readonly mime: "image/png" | "image/jpeg"; readonly data: string }
  | { readonly type: "undecodable" }
  | { readonly type: "too_large" }

/** The first encoding whose base64 fits: PNG first (not for a JPEG), then JPEG at each quality in turn. */
const encode = async (fitted: Pipeline, limits: Limits, photo: boolean): Promise<Normalised> => {
  const png = photo ? undefined : await fitted.clone().png().toBuffer()
  if (png !== undefined && base64Length(png.length) <= limits.maxBase64Bytes) return { type: "image", mime: "image/png", data: png.toString("base64") }
  for (const quality of JPEG_QUALITIES) {
    const jpeg = await fitted.clone().flatten({ background: "#ffffff" }).jpeg({ quality }).toBuffer()
    if (base64Length(jpeg.length) <= limits.maxBase64Bytes) return { type: "image", mime: "image/jpeg", data: jpeg.toString("base64") }
  }
  return { type: "too_large" }
}

/** Normalises image bytes; a decoder error means the image cannot be decoded. */
export const normalise = async (bytes: Buffer, limits: Limits): Promise<Normalised> => {
  const photo = detect(bytes) === "jpeg"
  const sharp = await loadSharp()
  const fitted = sharp(bytes)
    .rotate()
    .resize({ width: limits.maxDimension, height: limits.maxDimension, fit: "inside", withoutEnlargement: true })
  // sharp reports a corrupt or unsupported image only by rejecting; that is an answer here.
  return encode(fitted, limits, photo).catch((): Normalised => ({ type: "undecodable" }))
}
