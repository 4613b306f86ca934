/**
 * Command arities (07): how many leading words of a command name its operation. `rm -rf x` is
 * `rm` (1), `git status -s` is `git status` (2), `npm run test` is `npm run test` (3). The one
 * data table lives here; the longest listed prefix of a command's words decides, and commands
 * are looked up by the base name of their first word (`/usr/bin/git` is `git`).
 * A save pattern is the first `arity` words plus ` *`. Gotcha: it must never cover more than the
 * person saw, so a command shorter than its arity saves itself exactly (no ` *`: `git` alone
 * must not become `git *`), and an option inside the arity window (`git -C dir status`) saves
 * nothing, because `git -C *` would also allow `git -C dir push`.
 */
export * as BashArity from "./arity.js"

/** A save pattern is produced only when every kept word matches this (07). */
export const PLAIN = /^[A-Za-z0-9_./:@%+=,-]+$/

/** Every command not listed here has arity 1. A key of several words refines its first word. */
export const TABLE: Readonly<Record<string, number>> = {
  // Version control and forges.
  git: 2,
  "git stash": 3,
  "git remote": 3,
  "git submodule": 3,
  "git worktree": 3,
  "git notes": 3,
  "git lfs": 3,
  "git bisect": 3,
  hg: 2,
  svn: 2,
  gh: 2,
  "gh pr": 3,
  "gh issue": 3,
  "gh repo": 3,
  "gh release": 3,
  "gh run": 3,
  "gh workflow": 3,
  "gh gist": 3,
  "gh secret": 3,
  "gh variable": 3,
  "gh label": 3,
  "gh auth": 3,
  "gh codespace": 3,
  "gh project": 3,
  "gh extension": 3,
  "gh cache": 3,
  "gh ruleset": 3,
  "gh ssh-key": 3,
  "gh gpg-key": 3,
  "gh alias": 3,
  "gh config": 3,
  glab: 2,
  "glab mr": 3,
  "glab issue": 3,
  "glab repo": 3,
  "glab ci": 3,
  // JavaScript.
  npm: 2,
  "npm run": 3,
  "npm run-script": 3,
  "npm exec": 3,
  pnpm: 2,
  "pnpm run": 3,
  "pnpm exec": 3,
  "pnpm dlx": 3,
  yarn: 2,
  "yarn run": 3,
  "yarn workspace": 3,
  "yarn dlx": 3,
  bun: 2,
  "bun run": 3,
  "bun x": 3,
  npx: 2,
  bunx: 2,
  pnpx: 2,
  deno: 2,
  "deno task": 3,
  corepack: 2,
  nx: 2,
  turbo: 2,
  "turbo run": 3,
  lerna: 2,
  ng: 2,
  expo: 2,
  prisma: 2,
  "prisma migrate": 3,
  "prisma db": 3,
  wrangler: 2,
  vercel: 2,
  netlify: 2,
  firebase: 2,
  supabase: 2,
  pm2: 2,
  // Python.
  pip: 2,
  pip3: 2,
  pipx: 2,
  poetry: 2,
  "poetry run": 3,
  uv: 2,
  "uv run": 3,
  "uv pip": 3,
  "uv tool": 3,
  pdm: 2,
  "pdm run": 3,
  hatch: 2,
  "hatch run": 3,
  rye: 2,
  conda: 2,
  "conda env": 3,
  mamba: 2,
  pyenv: 2,
  // Other languages and their build tools.
  cargo: 2,
  rustup: 2,
  "rustup toolchain": 3,
  "rustup target": 3,
  "rustup component": 3,
  go: 2,
  "go mod": 3,
  "go work": 3,
  "go tool": 3,
  dotnet: 2,
  mvn: 2,
  gradle: 2,
  gradlew: 2,
  sbt: 2,
  lein: 2,
  mix: 2,
  rebar3: 2,
  stack: 2,
  cabal: 2,
  opam: 2,
  dune: 2,
  swift: 2,
  flutter: 2,
  dart: 2,
  pod: 2,
  fastlane: 2,
  bundle: 2,
  "bundle exec": 3,
  rails: 2,
  rake: 2,
  gem: 2,
  composer: 2,
  "php artisan": 3,
  make: 2,
  cmake: 2,
  just: 2,
  // Containers, clusters and clouds.
  docker: 2,
  "docker compose": 3,
  "docker container": 3,
  "docker image": 3,
  "docker network": 3,
  "docker volume": 3,
  "docker system": 3,
  "docker buildx": 3,
  "docker context": 3,
  "docker builder": 3,
  "docker plugin": 3,
  "docker secret": 3,
  "docker service": 3,
  "docker stack": 3,
  "docker swarm": 3,
  "docker node": 3,
  "docker manifest": 3,
  "docker-compose": 2,
  podman: 2,
  "podman compose": 3,
  "podman container": 3,
  "podman image": 3,
  "podman network": 3,
  "podman volume": 3,
  "podman system": 3,
  "podman-compose": 2,
  kubectl: 2,
  "kubectl config": 3,
  "kubectl rollout": 3,
  "kubectl auth": 3,
  "kubectl create": 3,
  "kubectl set": 3,
  "kubectl certificate": 3,
  helm: 2,
  "helm repo": 3,
  "helm plugin": 3,
  "helm registry": 3,
  "helm dependency": 3,
  minikube: 2,
  kind: 2,
  k3d: 3,
  eksctl: 3,
  terraform: 2,
  "terraform state": 3,
  "terraform workspace": 3,
  "terraform providers": 3,
  tofu: 2,
  terragrunt: 2,
  pulumi: 2,
  vagrant: 2,
  packer: 2,
  aws: 3,
  gcloud: 3,
  // gcloud and az name a resource group, then a resource, then the verb.
  "gcloud compute": 4,
  "gcloud container": 4,
  "gcloud sql": 4,
  "gcloud iam": 4,
  "gcloud run services": 4,
  "gcloud artifacts": 4,
  "gcloud secrets versions": 4,
  az: 3,
  "az network": 4,
  "az storage": 4,
  "az keyvault": 4,
  "az sql": 4,
  "az webapp": 4,
  "az ad": 4,
  doctl: 3,
  heroku: 2,
  fly: 2,
  flyctl: 2,
  vault: 2,
  "vault kv": 3,
  "vault secrets": 3,
  "vault auth": 3,
  "vault policy": 3,
  "vault token": 3,
  consul: 2,
  "consul kv": 3,
  "consul acl": 4,
  "consul services": 3,
  "consul connect": 3,
  nomad: 2,
  "nomad job": 3,
  "nomad node": 3,
  // System and package managers.
  apt: 2,
  "apt-get": 2,
  "apt-cache": 2,
  dpkg: 2,
  dnf: 2,
  yum: 2,
  zypper: 2,
  apk: 2,
  brew: 2,
  "brew services": 3,
  port: 2,
  snap: 2,
  flatpak: 2,
  nix: 2,
  systemctl: 2,
  service: 3,
  launchctl: 2,
  ufw: 2,
  ip: 2,
  tmux: 2,
  supervisorctl: 2,
  openssl: 2,
  nvm: 2,
  rbenv: 2,
  asdf: 2,
  mise: 2,
  volta: 2,
  fnm: 2,
  sdk: 2,
}

// A Map, so that a command named like an Object.prototype member (`constructor`) is not found.
const table = new Map(Object.entries(TABLE))
/** The most words a TABLE key spans. */
export const MAX_KEY_WORDS = Math.max(...Object.keys(TABLE).map((key) => key.split(" ").length))

const basename = (word: string) => word.slice(word.lastIndexOf("/") + 1)

/**
 * How many of `words` (a command name first) name its operation: the value of the longest
 * prefix listed in TABLE, else 1.
 * @example BashArity.arity(["npm", "run", "test", "--", "--watch"]) // 3
 */
export const arity = (words: ReadonlyArray<string>): number => {
  const keys = Array.from({ length: Math.min(words.length, MAX_KEY_WORDS) }, (_, n) => [basename(words[0] ?? ""), ...words.slice(1, n + 1)].join(" "))
  return keys.reduce((found, key) => table.get(key) ?? found, 1)
}

/**
 * `count` leading words then ` *`; the words themselves (no ` *`) when there are fewer than
 * `count`; undefined when a kept word is not PLAIN.
 * @example BashArity.pattern(["sudo", "rm", "x"], 2) // "sudo rm *"
 */
export const pattern = (words: ReadonlyArray<string>, count: number): string | undefined => {
  const kept = words.slice(0, count)
  if (kept.length === 0 || !kept.every((word) => PLAIN.test(word))) return undefined
  return kept.length < count ? kept.join(" ") : `${kept.join(" ")} *`
}

/**
 * How many leading words a save keeps: the arity, or undefined when a word after the first
 * inside it is an option (it would widen to other operations).
 */
export const prefix = (words: ReadonlyArray<string>): number | undefined => {
  const count = arity(words)
  return words.slice(1, count).some((word) => word.startsWith("-")) ? undefined : count
}

/**
 * The save pattern of a command's words.
 * @example BashArity.save(["git", "status", "-s"]) // "git status *"
 */
export const save = (words: ReadonlyArray<string>): string | undefined => {
  const count = prefix(words)
  return count === undefined ? undefined : pattern(words, count)
}
