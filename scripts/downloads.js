// `node scripts/downloads.js install-electron|electron-builder [ARGS…]`: runs one of the two commands that
// download Electron (`install-electron` before `npm start`, `electron-builder` in `npm run dist`). When it fails
// for want of the network, its stack gives way to one paragraph: what could not be downloaded, from where, and
// the ways out. Any other failure is shown as the command wrote it.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)
/// What a failed download says, from Node's fetch to electron-builder's own client.
const NETWORK =
  /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up|HTTPError|Response code \d+/
const README = 'See "Set up and run" in README.md.'

const COMMANDS = {
  'install-electron': {
    script: require.resolve('electron/install.js'),
    explain: electronInstall,
    // A connection closed without an answer leaves the installer waiting on nothing: it ends, "successfully".
    installed: () => existsSync(join(dirname(require.resolve('electron')), 'path.txt')),
  },
  'electron-builder': { script: require.resolve('electron-builder/cli.js'), explain: electronBuilder },
}

const [name, ...args] = process.argv.slice(2)
const command = COMMANDS[name]
if (!command) {
  console.error(`Usage: node scripts/downloads.js ${Object.keys(COMMANDS).join('|')} [ARGS…]`)
  process.exit(2)
}

// Standard output passes through line by line (electron-builder's progress) until a line marks a failure (⨯, or
// a download's error alone when the output is not a terminal); what follows is held, with standard error, until it is known whether a download failed.
const child = spawn(process.execPath, [command.script, ...args], { stdio: ['inherit', 'pipe', 'pipe'] })
let out = ''
let held = ''
let err = ''
child.stdout.on('data', (chunk) => {
  out += chunk
  const lines = `${held}${chunk}`.split(/(?<=\n)/)
  held = ''
  for (const line of lines) {
    if (held !== '' || line.includes('⨯') || NETWORK.test(line) || !line.endsWith('\n')) held += line
    else process.stdout.write(line)
  }
})
child.stderr.on('data', (chunk) => (err += chunk))
child.on('close', async (code, signal) => {
  const unfinished = code === 0 && command.installed?.() === false
  const failure = unfinished
    ? 'the connection ended without the file'
    : code !== 0 && `${err}\n${out}`.split('\n').find((line) => NETWORK.test(line))
  if (failure) {
    // "⨯ connect ECONNREFUSED 127.0.0.1:1  failedTask=build stackTrace=…", "read ECONNRESET {",
    // "TypeError: fetch failed".
    const reason = failure
      .replace(/^[\s⨯]+/, '')
      .split(/\s{2,}| \{$/)[0]
      .replace(/^\w*Error: /, '')
    console.error(command.explain(reason, await electronURL()))
  } else {
    process.stdout.write(held)
    process.stderr.write(err)
  }
  process.exit(unfinished ? 1 : (code ?? (signal ? 1 : 0)))
})

const { version } = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8'))

/// Where Electron's archive for this computer is fetched from, mirror variables included, by @electron/get's
/// own resolution (which both commands use; its package exports only the download itself).
async function electronURL() {
  const get = dirname(require.resolve('@electron/get', { paths: [dirname(require.resolve('electron'))] }))
  const { getArtifactRemoteURL } = await import(pathToFileURL(join(get, 'artifact-utils.js')).href)
  return getArtifactRemoteURL({
    version: `v${version}`,
    artifactName: 'electron',
    // As Electron's installer chooses them.
    platform: process.env.ELECTRON_INSTALL_PLATFORM || process.env.npm_config_platform || process.platform,
    arch: process.env.ELECTRON_INSTALL_ARCH || process.env.npm_config_arch || process.arch,
  })
}

/// The paragraph for `npm start`: the archive Electron's installer asked for, where from, and the ways out.
function electronInstall(reason, url) {
  return (
    `npm start could not download Electron ${version}'s binary from ${url} (${reason}). Ways out: ` +
    'ELECTRON_MIRROR=https://mirror.example/electron/ npm start fetches it from a mirror; ' +
    'electron_config_cache=DIR npm start installs it from a download cache copied from a machine that has one ' +
    '(by default ~/.cache/electron); ELECTRON_EXEC_PATH=/path/to/electron npm start --ignore-scripts starts an ' +
    `Electron ${version.split('.')[0]} already on this computer. ${README}`
  )
}

/// The paragraph for `npm run dist`: Electron's build (the same archive) or, when the reason names their
/// release, electron-builder's packaging tools; where from, and the ways out.
function electronBuilder(reason, url) {
  const tools = /electron-builder-binaries/.test(reason)
  const what = tools
    ? "electron-builder's packaging tools from GitHub"
    : `Electron ${version}'s build from ${url}`
  return (
    `npm run dist could not download ${what} (${reason}). Ways out: ELECTRON_MIRROR=URL/ for ` +
    "Electron's build and ELECTRON_BUILDER_BINARIES_MIRROR=URL/ for the packaging tools fetch from mirrors; " +
    'ELECTRON_BUILDER_CACHE=DIR uses a cache copied from a machine that has them; ' +
    'npm run dist -- --dir --config.electronDist=node_modules/electron/dist packages the Electron that ' +
    `npm start fetched. ${README}`
  )
}
