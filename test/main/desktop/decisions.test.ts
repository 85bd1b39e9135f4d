import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { appPage } from '../../../src/main/desktop/appPage'
import { configFile, fileToOpen, FilesToOpen, JS_FLAGS } from '../../../src/main/desktop/launch'
import { linkForBrowser, mayGrant, mayNavigate } from '../../../src/main/desktop/pageRules'
import { placeOnScreen } from '../../../src/main/desktop/placement'
import {
  chosenPath,
  CLOSE_PROMPT,
  OPEN_DIALOG,
  replacePrompt,
  saidYes,
  saveAsDialog,
  saveDialogOptions,
  startupError,
  unsavedEditsPrompt,
} from '../../../src/main/desktop/prompts'

// What the desktop shell decides, without Electron: the shell only shows and applies it.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const page = appPage(undefined)
const dev = appPage('http://localhost:5173')

describe('navigation and windows', () => {
  it('keeps the main frame on the app page and lets no sub-frame go anywhere', () => {
    expect(mayNavigate('app://factdesk/index.html#/settings', page, true)).toBe(true)
    expect(mayNavigate('app://factdesk/index.html', page, false)).toBe(false)
    expect(mayNavigate('app://factdesk/assets/index.js', page, true)).toBe(false)
    expect(mayNavigate('https://en.wikipedia.org/', page, true)).toBe(false)
    expect(mayNavigate('http://localhost:5173/', dev, true)).toBe(true)
  })

  it("hands only web links to the user's browser, never the app page itself", () => {
    expect(linkForBrowser('https://en.wikipedia.org/wiki/Moon', page)).toBe(
      'https://en.wikipedia.org/wiki/Moon',
    )
    expect(linkForBrowser('http://localhost:5173/', dev)).toBeNull()
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://factdesk/index.html',
      'smb://h/s',
    ]) {
      expect(linkForBrowser(url, page), url).toBeNull()
    }
  })
})

describe('permissions', () => {
  it('grants copying to the app page, from its origin', () => {
    expect(mayGrant('clipboard-sanitized-write', page.href, undefined, page)).toBe(true)
    expect(mayGrant('clipboard-sanitized-write', `${page.href}#/claims`, 'app://factdesk/', page)).toBe(true)
    expect(
      mayGrant('clipboard-sanitized-write', 'http://localhost:5173/', 'http://localhost:5173', dev),
    ).toBe(true)
  })

  it('refuses copying to any other page or origin, and every other permission to all', () => {
    expect(mayGrant('clipboard-sanitized-write', 'https://evil.example/', undefined, page)).toBe(false)
    expect(mayGrant('clipboard-sanitized-write', page.href, 'https://evil.example', page)).toBe(false)
    expect(mayGrant('clipboard-sanitized-write', page.href, 'not an origin', page)).toBe(false)
    expect(mayGrant('clipboard-sanitized-write', undefined, 'app://factdesk', page)).toBe(false)
    for (const permission of ['clipboard-read', 'media', 'notifications', 'geolocation', 'openExternal']) {
      expect(mayGrant(permission, page.href, 'app://factdesk', page), permission).toBe(false)
    }
  })
})

describe('the window on screen', () => {
  const laptop = { x: 0, y: 0, width: 1440, height: 870 }
  const monitor = { x: 1440, y: 0, width: 2560, height: 1400 }

  it('reopens where it was on a display that still shows it', () => {
    const bounds = { x: 1600, y: 100, width: 1280, height: 860 }
    expect(placeOnScreen(bounds, [laptop, monitor])).toEqual(bounds)
  })

  it('fits bounds larger than the display, or partly off it, inside its work area', () => {
    expect(placeOnScreen({ x: -200, y: 500, width: 2000, height: 900 }, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 870,
    })
    // Mostly on the monitor: moved in there, not onto the laptop.
    expect(placeOnScreen({ x: 3500, y: 1000, width: 800, height: 600 }, [laptop, monitor])).toEqual({
      x: 3200,
      y: 800,
      width: 800,
      height: 600,
    })
  })

  it('forgets bounds no display shows, and a file edited into nonsense', () => {
    expect(placeOnScreen({ x: 5000, y: 5000, width: 800, height: 600 }, [laptop])).toBeUndefined()
    expect(placeOnScreen({ x: 0, y: 0, width: -5, height: 600 }, [laptop])).toBeUndefined()
    expect(placeOnScreen('huge', [laptop])).toBeUndefined()
    expect(placeOnScreen(undefined, [laptop])).toBeUndefined()
  })
})

describe('dialogs', () => {
  it('open Markdown, text and Word files, and save as Markdown or text', () => {
    expect(OPEN_DIALOG.filters?.[0]?.extensions).toEqual(['md', 'markdown', 'txt', 'docx'])
    const save = saveAsDialog('/home/ada/Documents', 'Moon landing', null)
    expect(save.defaultPath).toBe(join('/home/ada/Documents', 'Moon landing'))
    expect(save.filters?.map((filter) => filter.extensions)).toEqual([['md', 'markdown'], ['txt']])
    expect(saveAsDialog('/home/ada/Documents', 'Moon', '/tmp/moon.md').defaultPath).toBe('/tmp/moon.md')
    // A title is a name, never a way into another folder.
    expect(saveAsDialog('/home/ada/Documents', '../../etc/passwd', null).defaultPath).toBe(
      join('/home/ada/Documents', 'passwd'),
    )
  })

  it('read the path chosen, or null when cancelled', () => {
    expect(chosenPath({ canceled: false, filePaths: ['/tmp/a.md'] })).toBe('/tmp/a.md')
    expect(chosenPath({ canceled: false, filePath: '/tmp/b.md' })).toBe('/tmp/b.md')
    expect(chosenPath({ canceled: true, filePaths: ['/tmp/a.md'] })).toBeNull()
    expect(chosenPath({ canceled: false, filePaths: [] })).toBeNull()
    expect(chosenPath({ canceled: false, filePath: '' })).toBeNull()
  })

  it("save an export in Documents under the export's own name", () => {
    expect(saveDialogOptions('/home/ada/Documents', 'moon-landing-report.pdf')).toEqual({
      title: 'Save the report',
      defaultPath: join('/home/ada/Documents', 'moon-landing-report.pdf'),
    })
    expect(saveDialogOptions('/home/ada/Documents', '../../.bashrc').defaultPath).toBe(
      join('/home/ada/Documents', '.bashrc'),
    )
  })

  it('ask before replacing or closing, with Cancel as the safe answer', () => {
    const exists = replacePrompt('/tmp/notes.md', 'exists')
    expect(exists.message).toBe('"notes.md" already exists. Replace it?')
    expect(exists.detail).toContain('/tmp/notes.md')
    expect(replacePrompt('/tmp/notes.md', 'changed').message).toContain('changed on disk')
    const edits = unsavedEditsPrompt('/tmp/notes.md', 'notes (unsaved edits)')
    expect(edits.buttons).toEqual(['Keep my unsaved edits', 'Load the version on disk'])
    expect(edits.detail).toContain('"notes (unsaved edits)"')
    // Closing the box keeps the edits: the safe answer is the first button here.
    expect(edits.cancelId).toBe(0)
    for (const prompt of [exists, CLOSE_PROMPT]) {
      expect(prompt.buttons?.[prompt.cancelId ?? -1]).toBe('Cancel')
      expect(prompt.defaultId).toBe(prompt.cancelId)
    }
    expect(CLOSE_PROMPT.message).toBe('Close without saving the file?')
    expect(saidYes(0)).toBe(true)
    expect(saidYes(1)).toBe(false)
  })

  it('say why the app cannot start in the words of the error', () => {
    expect(startupError(new Error('The data folder is in use by factdesk serve.'))).toEqual({
      title: 'Factdesk cannot start',
      content: 'The data folder is in use by factdesk serve.',
    })
    expect(startupError('plain').content).toBe('plain')
  })
})

describe('the command line', () => {
  it('takes --config FILE among Chromium switches, and refuses it without a file', () => {
    expect(configFile(['out/main/index.js', '--no-sandbox', '--config', 'fake.json'])).toBe('fake.json')
    expect(configFile(['--config=fake.json'])).toBe('fake.json')
    expect(configFile(['.', '--inspect'])).toBeUndefined()
    expect(() => configFile(['--config'])).toThrow('--config needs a file: --config FILE')
    expect(() => configFile(['--config='])).toThrow('--config needs a file')
  })

  it('finds the file to open, from the folder of the instance that was asked', () => {
    expect(fileToOpen(['/opt/Factdesk/factdesk', '/home/ada/Moon.md'], '/')).toBe('/home/ada/Moon.md')
    expect(fileToOpen(['factdesk', 'notes/draft.DOCX'], '/home/ada')).toBe(
      resolve('/home/ada', 'notes/draft.DOCX'),
    )
    // Development: Electron, the app's path, then the file; Chromium's switches and --config around it.
    expect(
      fileToOpen(
        ['electron', 'out/main/index.js', '--config', 'fake.json', '--allow-file-access', 'a.txt'],
        '/w',
      ),
    ).toBe(resolve('/w', 'a.txt'))
    expect(fileToOpen(['factdesk', 'report.markdown', 'b.md'], '/w')).toBe(resolve('/w', 'b.md'))
    expect(fileToOpen(['factdesk', '.', 'photo.png', '--config', 'x.json'], '/w')).toBeNull()
    expect(fileToOpen(['/opt/Factdesk/notes.md'], '/w')).toBeNull()
  })

  it('holds the files asked for until the window can take them, then hands them over in order', () => {
    const files = new FilesToOpen()
    const opened: string[] = []
    files.add('/a.md')
    files.add(null)
    files.add('/b.txt')
    expect(opened).toEqual([])
    files.openWith((path) => opened.push(path))
    expect(opened).toEqual(['/a.md', '/b.txt'])
    files.add('/c.docx')
    expect(opened).toEqual(['/a.md', '/b.txt', '/c.docx'])
  })
})

describe("the app's V8 flags", () => {
  const read = (name: string): string => readFileSync(join(ROOT, name), 'utf8')
  it('are the ones `factdesk serve` runs with, at every launch of the main process', () => {
    expect(read('bin/factdesk.js').split('\n')[0]).toContain(`node ${JS_FLAGS}`)
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts
    expect(scripts.start).toContain(`-- --js-flags=${JS_FLAGS}`)
    expect(read('electron-builder.yml')).toMatch(
      new RegExp(`\\nlinux:\\n(?:  .*\\n)*  executableArgs: \\['--js-flags=${JS_FLAGS}'\\]`),
    )
  })
})
