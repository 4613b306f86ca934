import { describe, expect, it } from "vitest"
import { parse } from "../../../lib/bash-gate.js"

/** The paths a line writes (null when unknown), or "opaque". */
const written = (command: string) => {
  const parsed = parse(command)
  return parsed.opaque ? "opaque" : parsed.targets.map((target) => target.path ?? null)
}

describe("BashProgramsBuild: decompressors and compilers write where their output lands", () => {
  it("a decompressor writes each operand without its suffix, and deletes the operand unless it keeps it", () => {
    expect(written("gunzip .envrc.gz")).toEqual([".envrc", ".envrc.gz"])
    expect(written("gzip -dk x.tgz")).toEqual(["x.tar"])
    expect(written("unxz -k ../a.xz")).toEqual(["../a"])
    expect(written("xz --decompress -k .git/config.xz")).toEqual([".git/config"])
    expect(written("bunzip2 -k a.bz2 b")).toEqual(["a", "b.out"])
    expect(written("bzip2 -d -k .envrc.bz2")).toEqual([".envrc"])
    expect(written("zstd -d .envrc.zst")).toEqual([".envrc"])
    expect(written("unzstd a.zst --rm")).toEqual(["a", "a.zst"])
    expect(written("zstd -d a.zst -o .git/config")).toEqual([".git/config"])
    expect(written("lz4 -d .envrc.lz4")).toEqual([".envrc"])
    expect(written("lz4 -d x.lz4 .git/hooks/pre-commit")).toEqual([".git/hooks/pre-commit"])
    expect(written("gzip -d -S .bin -k .envrc.bin")).toEqual([".envrc"])
  })

  it("a compressor writes the operand with its suffix and deletes it; -c, -t and -l write nothing; -r is unknown", () => {
    expect(written("gzip .envrc")).toEqual([".envrc.gz", ".envrc"])
    expect(written("gunzip -c .envrc.gz")).toEqual([])
    expect(written("xz -dc a.xz")).toEqual([])
    expect(written("zstd -t a.zst")).toEqual([])
    expect(written("gunzip -r dir")).toEqual([null])
  })

  it("compilers, assemblers and linkers write their -o; strip and objcopy their operands", () => {
    expect(written("cc -o ../pwn-cc x.c")).toEqual(["../pwn-cc"])
    expect(written("gcc -O2 -o.git/hooks/pre-commit x.c")).toEqual([".git/hooks/pre-commit"])
    expect(written("clang++ x.cc -o out")).toEqual(["out"])
    expect(written("ld --output=../x a.o")).toEqual(["../x"])
    expect(written("as -o ../x.o a.s")).toEqual(["../x.o"])
    expect(written("gcc -Wl,-o,../x a.c")).toEqual([null])
    expect(written("gcc @args")).toEqual([null])
    expect(written("go build -o ../bin/x ./cmd")).toEqual(["../bin/x"])
    expect(written("rustc -o .git/hooks/pre-commit x.rs")).toEqual([".git/hooks/pre-commit"])
    expect(written("rustc --out-dir .git/hooks x.rs")).toEqual([null])
    expect(written("strip -o ../x a")).toEqual(["../x"])
    expect(written("strip ../a")).toEqual(["../a"])
    expect(written("objcopy a ../b")).toEqual(["../b"])
    expect(written("gcc $CFLAGS x.c")).toBe("opaque")
  })

  it("reads a compiler by its name's shape: cross and versioned compilers, cpp's output operand, c99, gold", () => {
    expect(written("gcc-12 -o .git/hooks/pre-commit a.c")).toEqual([".git/hooks/pre-commit"])
    expect(written("x86_64-linux-gnu-gcc -o ../x a.c")).toEqual(["../x"])
    expect(written("g++-12 a.cc -o out")).toEqual(["out"])
    expect(written("clang-17 -o out a.c")).toEqual(["out"])
    expect(written("c99 -o out a.c")).toEqual(["out"])
    expect(written("gold -o .envrc a.o")).toEqual([".envrc"])
    expect(written("cpp a.c .envrc")).toEqual([".envrc"])
    expect(written("cpp-12 -o .envrc a.c")).toEqual([".envrc"])
    // Not compilers: names that only contain one.
    expect(written("gccgo-helper x")).toEqual([])
    expect(written("class x")).toEqual([])
  })

  it("takes a compiler's other ways of naming an output: the linker's -o passed through, -MF, auxiliary files", () => {
    expect(written("gcc -Wl,--output=.git/hooks/post-checkout a.c")).toEqual([null])
    expect(written("gcc -Wl,-rpath,/x -Wl,-o,out a.c")).toEqual([null])
    expect(written("gcc -Xlinker -o -Xlinker .git/hooks/pre-push a.c")).toEqual([null])
    expect(written("gcc -MD -MF toolgate.json -c a.c")).toEqual(["toolgate.json"])
    expect(written("gcc -MF.envrc -c a.c")).toEqual([".envrc"])
    expect(written("gcc -dumpdir .git/hooks/ -c a.c")).toEqual([null])
    expect(written("gcc -save-temps -c a.c")).toEqual([null])
    // Linker options that name no output stay as they were.
    expect(written("gcc -Wl,--as-needed -Xlinker -rpath -o a a.c")).toEqual(["a"])
  })

  it("reads the same formats under their other names", () => {
    expect(written("unlzma .envrc.lzma")).toEqual([".envrc", ".envrc.lzma"])
    expect(written("lzma -d -k .envrc.lzma")).toEqual([".envrc"])
    expect(written("uncompress .envrc.Z")).toEqual([".envrc", ".envrc.Z"])
    expect(written("zstdmt -d .husky.zst")).toEqual([".husky"])
    expect(written("unpigz -k .envrc.gz")).toEqual([".envrc"])
    expect(written("lz4c -d x.lz4 .envrc")).toEqual([".envrc"])
  })
})
