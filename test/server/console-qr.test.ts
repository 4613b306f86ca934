/**
 * The QR code `--qr` prints: read back module by module from its terminal lines, it is the code
 * the library encodes for the address (two rows a line: upper half, lower half, both, neither);
 * and the address of a wildcard bind is the first non-internal IPv4 address.
 */
import os from "node:os"
import { describe, expect, it } from "vitest"
import { encode } from "uqr"
import { ConsoleQr } from "../../src/server/console-qr.js"
import { ServerServe } from "../../src/server/serve.js"

/** The modules the lines draw (true: dark), the inverse of the renderer's palette. */
const modulesOf = (lines: ReadonlyArray<string>, size: number): boolean[][] =>
  Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, column) => {
      const cell = [...(lines[Math.floor(row / 2)] ?? "")][column]
      const light = row % 2 === 0 ? cell === "\u2588" || cell === "\u2580" : cell === "\u2588" || cell === "\u2584"
      return !light
    }),
  )

type Interfaces = ReturnType<typeof os.networkInterfaces>
const entry = (address: string, family: "IPv4" | "IPv6", internal: boolean) =>
  ({ address, family, internal, netmask: "", mac: "", cidr: null, ...(family === "IPv6" ? { scopeid: 0 } : {}) }) as NonNullable<Interfaces[string]>[number]

describe("ConsoleQr", () => {
  it("draws the code of the address the library encodes, module by module", async () => {
    const url = "http://192.168.1.20:4096/"
    const lines = await ConsoleQr.render(url)
    const encoded = encode(url, { border: ConsoleQr.BORDER })
    expect(lines.length).toBe(Math.ceil(encoded.size / 2))
    expect(modulesOf(lines, encoded.size)).toEqual(encoded.data)
  })

  it("prints the code, the address, and that the page asks for a token it does not show", async () => {
    const url = "http://192.168.1.20:4096/"
    expect(await ConsoleQr.lines({ url, tokenShown: false })).toEqual([...(await ConsoleQr.render(url)), ConsoleQr.Messages.address(url), ConsoleQr.Messages.asksToken])
    expect(await ConsoleQr.lines({ url: `${url}#token=abc`, tokenShown: true })).toEqual([...(await ConsoleQr.render(`${url}#token=abc`)), ConsoleQr.Messages.address(`${url}#token=abc`)])
    expect(await ConsoleQr.lines({ url: undefined, tokenShown: false })).toEqual([ConsoleQr.Messages.noAddress])
    expect(ConsoleQr.Messages.address(url)).toBe("toolgate serve: the console, for a phone on this network: http://192.168.1.20:4096/")
  })
})

describe("ServerServe.reachableHost", () => {
  const interfaces: Interfaces = {
    lo: [entry("127.0.0.1", "IPv4", true), entry("::1", "IPv6", true)],
    eth0: [entry("fd00::2", "IPv6", false), entry("192.168.1.20", "IPv4", false)],
    eth1: [entry("10.0.0.5", "IPv4", false)],
  }
  const cases: ReadonlyArray<readonly [string, Interfaces, string | undefined]> = [
    ["0.0.0.0", interfaces, "192.168.1.20"],
    ["::", interfaces, "192.168.1.20"],
    ["10.0.0.5", interfaces, "10.0.0.5"],
    ["0.0.0.0", { lo: [entry("127.0.0.1", "IPv4", true)] }, undefined],
  ]
  for (const [hostname, given, expected] of cases)
    it(`reads ${hostname} as ${expected}`, () => {
      expect(ServerServe.reachableHost(hostname, given)).toBe(expected)
    })
})
