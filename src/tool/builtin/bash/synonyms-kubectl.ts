/**
 * kubectl's own spellings of one command (07). kubectl ships some sub-commands under a second
 * name (`kubectl create deploy` is `kubectl create deployment`, `kubectl top po` is
 * `kubectl top pod`). A rule compares spellings, so a `kubectl create deployment *` deny must see
 * `kubectl create deploy x` too: every other spelling of the command is one more form a rule
 * judges. The groups are the `Aliases:` of each command's `kubectl <command> --help` (kubectl 1.3x,
 * every command and sub-command read). Resource names (`kubectl delete po x` for pods) are not
 * here: the cluster's API server says which it knows.
 */
export * as BashSynonymsKubectl from "./synonyms-kubectl.js"

/** Each group: the spellings (the words after `kubectl`) of one command. */
export const GROUPS: ReadonlyArray<ReadonlyArray<string>> = [
  ["config use-context", "config use"],
  ...[
    ["configmap", "cm"],
    ["cronjob", "cj"],
    ["deployment", "deploy"],
    ["ingress", "ing"],
    ["namespace", "ns"],
    ["poddisruptionbudget", "pdb"],
    ["priorityclass", "pc"],
    ["quota", "resourcequota"],
    ["service", "svc"],
    ["serviceaccount", "sa"],
  ].map((names) => names.map((name) => `create ${name}`)),
  ["set serviceaccount", "set sa"],
  ["top node", "top nodes", "top no"],
  ["top pod", "top pods", "top po"],
]

const groupOf = new Map(GROUPS.flatMap((group) => group.map((spelling) => [spelling, group] as const)))

/**
 * The other spellings of the kubectl command `words` (base name first, options before the command
 * already dropped), each with the rest of its words; none for another program or command.
 * @example BashSynonymsKubectl.synonyms(["kubectl", "create", "deploy", "web"]) // [["kubectl", "create", "deployment", "web"]]
 */
export const synonyms = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const [name, first, second] = words
  if (name !== "kubectl" || first === undefined || second === undefined) return []
  const spelled = `${first} ${second}`
  const group = groupOf.get(spelled)
  if (group === undefined) return []
  const rest = words.slice(3)
  return group.filter((other) => other !== spelled).map((other) => ["kubectl", ...other.split(" "), ...rest])
}
