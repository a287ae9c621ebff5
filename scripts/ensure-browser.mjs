#!/usr/bin/env node
// Finds a Chromium for the end-to-end tests and prints its path.
// Order: $ATELIER_CHROMIUM, Playwright's own Chromium when installed, Debian's /usr/bin/chromium.
// With --install (and root), installs Debian's package when none is found. With --check, only
// exits 0 or 1. Playwright cannot download its own browser on these machines, hence Debian's.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export async function findChromium() {
  const candidates = [];
  if (process.env.ATELIER_CHROMIUM) candidates.push(process.env.ATELIER_CHROMIUM);
  try {
    const { chromium } = await import('playwright-core');
    candidates.push(chromium.executablePath());
  } catch {
    // playwright-core not installed or no browser of its own: fall through to Debian's.
  }
  candidates.push('/usr/bin/chromium', '/usr/bin/chromium-browser');
  return candidates.find((p) => p && existsSync(p));
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  let found = await findChromium();
  if (!found && process.argv.includes('--install')) {
    if (process.getuid?.() !== 0) {
      console.error('No Chromium found. Install it with: sudo apt-get install -y chromium');
      process.exit(1);
    }
    console.error('No Chromium found: installing Debian\'s chromium package (about 25 s)...');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    found = await findChromium();
  }
  if (!found) {
    if (!process.argv.includes('--check')) console.error('No Chromium found: set ATELIER_CHROMIUM, or run: apt-get install -y chromium');
    process.exit(1);
  }
  if (!process.argv.includes('--check')) console.log(found);
}
