/**
 * terraform's two spellings of a destroy (BashSynonymsTerraform), against real terraform: with a
 * `terraform_data` resource (built in, no provider to download, no network), each line below
 * destroys it, and the gate does not allow it under `* allow` with `terraform destroy *` denied.
 * The real-terraform part is skipped, with the reason printed, when terraform is missing; the gate
 * part needs no terraform.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BashSynonymsTerraform } from "../../../../src/tool/builtin/bash/synonyms-terraform.js"
import { decide, rule } from "../../../lib/bash-gate.js"

const unavailable = spawnSync("terraform", ["version"]).error === undefined ? undefined : "terraform is not installed"
if (unavailable !== undefined) console.warn(`real-terraform destroy oracle skipped: ${unavailable}`)

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-terraform-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const ENV = { PATH: process.env.PATH ?? "", HOME: root, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" }
const terraform = (...args: ReadonlyArray<string>) => spawnSync("terraform", ["-chdir=work", ...args, "-no-color"], { cwd: root, env: ENV, encoding: "utf8", timeout: 60_000 })

const NO_DESTROY = [rule("*", "allow"), rule("terraform destroy *", "deny")]
const NO_APPLY = [rule("*", "allow"), rule("terraform apply *", "deny")]

describe.skipIf(unavailable !== undefined)("terraform's destroys, against real terraform", () => {
  it("apply -destroy (and --destroy, -destroy=T) destroys, and a terraform destroy * deny denies it", () => {
    spawnSync("mkdir", ["work"], { cwd: root })
    writeFileSync(path.join(root, "work", "main.tf"), 'resource "terraform_data" "x" {}\n')
    expect(terraform("init").status).toBe(0)
    for (const option of ["-destroy", "--destroy", "-destroy=T"]) {
      expect(terraform("apply", "-auto-approve").stdout).toContain("1 added")
      expect([option, terraform("apply", option, "-auto-approve").stdout]).toEqual([option, expect.stringContaining("1 destroyed")])
      const line = `terraform -chdir=work apply ${option} -auto-approve`
      expect([line, decide(line, NO_DESTROY).effect]).toEqual([line, "deny"])
    }
    expect(terraform("apply", "-auto-approve").stdout).toContain("1 added")
    expect(terraform("apply", "-destroy=false", "-auto-approve").stdout).not.toContain("1 destroyed")
    expect(terraform("destroy", "-auto-approve").stdout).toContain("1 destroyed")
    expect(decide("terraform -chdir=work destroy -auto-approve", NO_APPLY).effect).toBe("deny")
  })
})

describe("terraform's destroys, judged by the gate", () => {
  it("a destroy spelled either way is judged under a rule written the other way", () => {
    expect(decide("terraform apply -destroy -auto-approve", NO_DESTROY).effect).toBe("deny")
    expect(decide("terraform -chdir=d apply --destroy=true", NO_DESTROY).effect).toBe("deny")
    expect(decide("terraform destroy -auto-approve", NO_APPLY).effect).toBe("deny")
    expect(decide("terraform apply -destroy=false -auto-approve", NO_DESTROY).effect).toBe("allow")
    expect(decide("terraform plan -destroy", NO_DESTROY).effect).toBe("allow")
    expect(BashSynonymsTerraform.synonyms(["terraform", "apply", "-auto-approve"])).toEqual([])
    expect(BashSynonymsTerraform.destroys("-destroy=F")).toBe(false)
  })
})
