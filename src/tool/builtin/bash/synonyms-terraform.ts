/**
 * terraform's two spellings of a destroy (07): `terraform destroy` is "a convenience alias for
 * `terraform apply -destroy`" (its help), so each is also the other. A rule compares spellings:
 * a `terraform destroy *` deny must see `terraform apply -destroy -auto-approve`, and a
 * `terraform apply *` deny `terraform destroy`. terraform reads its options as Go's flag package
 * does: `-destroy`, `--destroy`, or `-destroy=` with any value but a false one (or one that expands).
 */
export * as BashSynonymsTerraform from "./synonyms-terraform.js"

/** The values Go's flag package reads as false (strconv.ParseBool). */
export const FALSE = ["0", "f", "F", "false", "FALSE", "False"]

const DESTROY = /^--?destroy(?:=(.*))?$/

/** Whether an option word of `terraform apply` makes it a destroy. */
export const destroys = (word: string): boolean => {
  const found = DESTROY.exec(word)
  return found !== null && (found[1] === undefined || !FALSE.includes(found[1]))
}

/**
 * The other spelling of the terraform command `words` (base name first, options before the
 * command already dropped); none for another program or command.
 * @example BashSynonymsTerraform.synonyms(["terraform", "apply", "-destroy", "-auto-approve"]) // [["terraform", "destroy", "-auto-approve"]]
 * @example BashSynonymsTerraform.synonyms(["terraform", "destroy", "-auto-approve"]) // [["terraform", "apply", "-destroy", "-auto-approve"]]
 */
export const synonyms = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const [name, command] = words
  if (name !== "terraform") return []
  const rest = words.slice(2)
  if (command === "destroy") return [["terraform", "apply", "-destroy", ...rest]]
  if (command !== "apply" || !rest.some(destroys)) return []
  return [["terraform", "destroy", ...rest.filter((word) => !destroys(word))]]
}
