/**
 * kubectl's own spellings of one command (BashSynonymsKubectl), against real kubectl: the table
 * matches each command's `Aliases:`, and `kubectl create deploy` makes the same object as
 * `kubectl create deployment` (a client-side dry run: no cluster needed). The gate judges every
 * spelling under a rule written with another (`kubectl create deploy web` was allowed under a
 * `kubectl create deployment *` deny). The real-kubectl part is skipped, with the reason printed,
 * when kubectl is missing; the gate part needs no kubectl.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BashSynonymsKubectl } from "../../../../src/tool/builtin/bash/synonyms-kubectl.js"
import { decide, rule } from "../../../lib/bash-gate.js"

const unavailable = spawnSync("kubectl", ["version", "--client"]).error === undefined ? undefined : "kubectl is not installed"
if (unavailable !== undefined) console.warn(`real-kubectl synonym oracle skipped: ${unavailable}`)

const home = mkdtempSync(path.join(os.tmpdir(), "toolgate-kubectl-"))
afterAll(() => rmSync(home, { recursive: true, force: true }))
const kubectl = (words: ReadonlyArray<string>) => spawnSync("kubectl", words, { env: { PATH: process.env.PATH ?? "", HOME: home }, encoding: "utf8", timeout: 20_000 })

const allowAllBut = (denied: string) => [rule("*", "allow"), rule(denied, "deny")]

describe.skipIf(unavailable !== undefined)("kubectl's spellings, against real kubectl", () => {
  it("each group is what kubectl's help lists as the command's aliases", () => {
    for (const group of BashSynonymsKubectl.GROUPS) {
      const words = (group[0] as string).split(" ")
      const aliases = /^Aliases:\n\s*(.*)$/m.exec(kubectl([...words, "--help"]).stdout)?.[1]?.split(", ")
      const parent = words.slice(0, -1).join(" ")
      expect([group[0], (aliases ?? []).map((name) => `${parent} ${name}`).sort()]).toEqual([group[0], [...group].sort()])
    }
  })

  it("kubectl create deploy makes what kubectl create deployment makes", () => {
    const made = (kind: string) => kubectl(["create", kind, "web", "--image=nginx", "--dry-run=client", "-o", "yaml"]).stdout
    expect(made("deployment")).toContain("kind: Deployment")
    expect(made("deploy")).toBe(made("deployment"))
    expect(kubectl(["create", "ns", "team", "--dry-run=client", "-o", "yaml"]).stdout).toBe(kubectl(["create", "namespace", "team", "--dry-run=client", "-o", "yaml"]).stdout)
  })
})

describe("kubectl's spellings, judged by the gate", () => {
  it("a rule written with one spelling judges the others, options before and between them too", () => {
    expect(decide("kubectl create deploy web --image=nginx", allowAllBut("kubectl create deployment *")).effect).toBe("deny")
    expect(decide("kubectl -n prod create deploy web", allowAllBut("kubectl create deployment *")).effect).toBe("deny")
    expect(decide("kubectl create --dry-run=server deploy web", allowAllBut("kubectl create deployment *")).effect).toBe("deny")
    expect(decide("kubectl create deployment web", allowAllBut("kubectl create deploy *")).effect).toBe("deny")
    expect(decide("kubectl create svc clusterip web", allowAllBut("kubectl create service *")).effect).toBe("deny")
    expect(decide("kubectl config use prod", allowAllBut("kubectl config use-context *")).effect).toBe("deny")
    expect(decide("kubectl top po", allowAllBut("kubectl top pod*")).effect).toBe("deny")
  })

  it("other commands and programs are read as before", () => {
    expect(BashSynonymsKubectl.synonyms(["kubectl", "create", "secret", "generic", "x"])).toEqual([])
    expect(BashSynonymsKubectl.synonyms(["oc", "create", "deploy", "x"])).toEqual([])
    expect(decide("kubectl create secret generic x", allowAllBut("kubectl create deployment *")).effect).toBe("allow")
    expect(decide("kubectl get deploy", allowAllBut("kubectl create deployment *")).effect).toBe("allow")
  })
})
