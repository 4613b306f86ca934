import { describe, expect, it } from "vitest"
import { HOME, parse } from "../../../lib/bash-gate.js"

/** The file targets of a line, with what lands in them. */
const written = (command: string) => parse(command).targets.filter((target) => target.kind === "file").map(({ path, sources }) => ({ path, sources }))

describe("copying programs: the destination is a written file, with what lands in it", () => {
  it("cp, mv, ln, install: the last operand, the sources landing in it", () => {
    expect(written("cp -f a b dst")).toEqual([{ path: "dst", sources: [{ path: "a", tree: false }, { path: "b", tree: false }] }])
    expect(written("cp -r src dst")).toEqual([{ path: "dst", sources: [{ path: "src", tree: true }] }])
    expect(written("mv src dst")).toEqual([{ path: "dst", sources: [{ path: "src", tree: true, moved: true }] }])
    expect(written("install -m 755 x ~/bin")).toEqual([{ path: `${HOME}/bin`, sources: [{ path: "x", tree: false }] }])
    // A backup's name is made with a suffix (`mv -S c x .envr` makes `.envrc`): a write the gate cannot place.
    expect(written("cp x --suffix=.bak -b y")).toEqual([{ path: "y", sources: [{ path: "x", tree: false }] }, { path: undefined, sources: undefined }])
    expect(written("mv -b x y").at(-1)).toEqual({ path: undefined, sources: undefined })
  })

  it("-t names the folder: every operand lands in it", () => {
    expect(written("cp -t out a b")).toEqual([{ path: "out", sources: [{ path: "a", tree: false }, { path: "b", tree: false }] }])
    expect(written("mv --target-directory=out a")).toEqual([{ path: "out", sources: [{ path: "a", tree: true, moved: true }] }])
    expect(written("ln -tout a")).toEqual([{ path: "out", sources: [{ path: "a", tree: false }] }])
  })

  it("ln with one operand makes the link where it runs; --parents keeps the source's path", () => {
    expect(written("ln -s /x/.envrc")).toEqual([{ path: ".", sources: [{ path: "/x/.envrc", tree: false }] }])
    expect(written("cp --parents a/b dst")).toEqual([{ path: "dst", sources: [{ path: "a/b", tree: false, parents: true }] }])
  })

  it("a plain glob source is kept for the tool to expand; anything else that is not static is unknown", () => {
    expect(written("cp src/*.txt dst")).toEqual([{ path: "dst", sources: [{ path: undefined, glob: "src/*.txt", tree: false }] }])
    expect(written("cp -- \"$f\" dst")).toEqual([{ path: "dst", sources: [{ path: undefined, tree: false }] }])
  })

  it("a word that may be an option (`-t.git`) makes the line opaque; so does install --strip-program", () => {
    for (const command of ['cp "$f" dst', "mv $OPTS a b", "install --strip-program=./x a b", "cp -$'t'.git x"]) expect([command, parse(command).opaque]).toEqual([command, true])
  })

  it("install -d creates folders and writes no file; one operand of cp or mv writes nothing", () => {
    expect(written("install -d a b")).toEqual([])
    expect(written("cp a")).toEqual([])
  })

  it("dd writes of=; a word that is not static may be of=, and bash expands a ~ after of=", () => {
    expect(written("dd if=a of=b bs=1")).toEqual([{ path: "b", sources: undefined }])
    expect(written("dd if=a $OUT")).toEqual([{ path: undefined, sources: undefined }])
    expect(written("dd if=a of=~/x")).toEqual([{ path: undefined, sources: undefined }])
  })

  it("truncate writes every operand; link its second", () => {
    expect(written("truncate -s 0 a b")).toEqual([{ path: "a", sources: undefined }, { path: "b", sources: undefined }])
    expect(written("truncate -r ref a")).toEqual([{ path: "a", sources: undefined }])
    expect(written("link a b")).toEqual([{ path: "b", sources: undefined }])
  })

  it("rsync's local destination has its sources, with their trees under -a", () => {
    expect(written("rsync -a src/ dst")).toEqual([{ path: "dst", sources: [{ path: "src/", tree: true }] }])
    expect(written("rsync a host:b")).toEqual([])
  })
})
