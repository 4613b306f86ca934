/**
 * The seccomp filter bwrap installs in the sandbox (`--seccomp FD`): a classic BPF program over
 * `struct seccomp_data` that closes what the mounts cannot.
 * - `socket(AF_UNIX, …)` fails with EACCES. Connecting to a Unix socket needs no write access to
 *   its file, so a daemon of the host listening on a path the sandbox can read (a database, an
 *   agent, an editor's server, anywhere: even inside the Location) would act for the command
 *   outside the sandbox. `socketpair` stays allowed: pipes between the command's own processes.
 * - `io_uring_setup` fails with ENOSYS (callers fall back to plain system calls): io_uring's
 *   operations (socket, connect, open) do not pass through this filter.
 * - A system call of another ABI (32-bit `int 0x80` or x32 on x86-64, AArch32 on AArch64) ends
 *   the process: there `socketcall` multiplexes `socket` through memory a filter cannot read.
 * Built for x86-64 and AArch64; elsewhere there is no filter and the sandbox does not start.
 */
export * as SandboxSeccomp from "./seccomp.js"

/** The file descriptor bwrap reads the program from (the child's fourth stdio entry). */
export const FD = 3

const AF_UNIX = 1
const EACCES = 13
const ENOSYS = 38
/** System call numbers at or above this are x32 on x86-64 (`__X32_SYSCALL_BIT`). */
const X32_BIT = 0x40000000

const RET_ALLOW = 0x7fff0000
const RET_ERRNO = 0x00050000
const RET_KILL_PROCESS = 0x80000000

// Classic BPF opcodes.
const LD_W_ABS = 0x20
const JEQ_K = 0x15
const JGE_K = 0x35
const RET_K = 0x06

// Offsets in `struct seccomp_data` (little-endian): nr, arch, then args[0]'s low word.
const NR = 0
const ARCH = 4
const ARG0_LOW = 16

interface Abi {
  readonly audit: number
  readonly socket: number
  readonly ioUringSetup: number
}

/** The audit architecture and system call numbers of each Node architecture toolgate filters. */
const ABIS: Readonly<Record<string, Abi>> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425 },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
}

export const Messages = {
  unsupported: (arch: string) => `no seccomp filter is built for ${arch} (only x64 and arm64)`,
} as const

type Instruction = readonly [code: number, jt: number, jf: number, k: number]

/**
 * The filter for `arch` (`process.arch`) as bwrap reads it (`struct sock_filter` array), or
 * undefined when toolgate has none for that architecture.
 */
export const program = (arch: string = process.arch): Buffer | undefined => {
  const abi = ABIS[arch]
  if (abi === undefined) return undefined
  // Jumps are relative to the next instruction; the returns are at the end, in this order.
  const instructions: ReadonlyArray<Instruction> = [
    /* 0 */ [LD_W_ABS, 0, 0, ARCH],
    /* 1 */ [JEQ_K, 0, 8, abi.audit], // another ABI: kill (10)
    /* 2 */ [LD_W_ABS, 0, 0, NR],
    /* 3 */ [JGE_K, 6, 0, X32_BIT], // x32: kill (10)
    /* 4 */ [JEQ_K, 4, 0, abi.ioUringSetup], // ENOSYS (9)
    /* 5 */ [JEQ_K, 0, 2, abi.socket], // not socket: allow (8)
    /* 6 */ [LD_W_ABS, 0, 0, ARG0_LOW],
    /* 7 */ [JEQ_K, 3, 0, AF_UNIX], // AF_UNIX: EACCES (11)
    /* 8 */ [RET_K, 0, 0, RET_ALLOW],
    /* 9 */ [RET_K, 0, 0, RET_ERRNO | ENOSYS],
    /* 10 */ [RET_K, 0, 0, RET_KILL_PROCESS],
    /* 11 */ [RET_K, 0, 0, RET_ERRNO | EACCES],
  ]
  const bytes = Buffer.alloc(instructions.length * 8)
  instructions.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8)
    bytes.writeUInt8(jt, index * 8 + 2)
    bytes.writeUInt8(jf, index * 8 + 3)
    bytes.writeUInt32LE(k, index * 8 + 4)
  })
  return bytes
}
