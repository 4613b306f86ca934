/**
 * docker's own spellings of one command (07). docker ships each container and image command under
 * its management command and at the top (`docker image push` is `docker push`), and some under a
 * second name (`docker image remove` is `docker image rm` is `docker rmi`). A rule compares
 * spellings, so a `docker push *` deny must see `docker image push img` too: every other spelling
 * of the command is one more form a rule judges. The groups are the `Aliases:` of each command's
 * `docker <command> --help` (docker 28).
 */
export * as BashSynonymsDocker from "./synonyms-docker.js"

/** Each group: the spellings (the words after `docker`) of one command. */
export const GROUPS: ReadonlyArray<ReadonlyArray<string>> = [
  ["image build", "build", "builder build"],
  ["checkpoint ls", "checkpoint list"],
  ["checkpoint rm", "checkpoint remove"],
  ...["attach", "commit", "cp", "create", "diff", "exec", "export", "kill", "logs", "pause", "port", "rename", "restart", "run", "start", "stats", "stop", "top", "unpause", "update", "wait"].map(
    (command) => [`container ${command}`, command],
  ),
  ["container ls", "container list", "container ps", "ps"],
  ["container rm", "container remove", "rm"],
  ["context ls", "context list"],
  ["context rm", "context remove"],
  ...["history", "import", "load", "pull", "push", "save", "tag"].map((command) => [`image ${command}`, command]),
  ["image ls", "image list", "images"],
  ["image rm", "image remove", "rmi"],
  ...["network", "plugin", "volume", "config", "node", "secret", "service"].flatMap((group) => [
    [`${group} ls`, `${group} list`],
    [`${group} rm`, `${group} remove`],
  ]),
  ["system events", "events"],
  ["system info", "info"],
  ["stack deploy", "stack up"],
  ["stack ls", "stack list"],
  ["stack rm", "stack remove", "stack down"],
]

const groupOf = new Map(GROUPS.flatMap((group) => group.map((spelling) => [spelling, group] as const)))

/**
 * The other spellings of the docker command `words` (base name first, options before the command
 * already dropped), each with the rest of its words; none for another program or command.
 * @example BashSynonymsDocker.synonyms(["docker", "image", "push", "img"]) // [["docker", "push", "img"]]
 */
export const synonyms = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const [name, first, second] = words
  if (name !== "docker" || first === undefined) return []
  // The longer spelling first: `container rm` is not `container` then `rm`.
  const two = second === undefined ? undefined : `${first} ${second}`
  const spelled = two !== undefined && groupOf.has(two) ? two : first
  const group = groupOf.get(spelled)
  if (group === undefined) return []
  const rest = words.slice(1 + spelled.split(" ").length)
  return group.filter((other) => other !== spelled).map((other) => ["docker", ...other.split(" "), ...rest])
}
