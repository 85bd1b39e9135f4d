import { screen, type BrowserWindow, type Rectangle } from 'electron'
import Store from 'electron-store'
import { z } from 'zod'

const Bounds = z.object({ x: z.int(), y: z.int(), width: z.int().positive(), height: z.int().positive() })

/// The main window's place on screen, remembered across runs in a small file of its own (window.json in the
/// user-data folder). Nothing else is stored there.
export class WindowBounds {
  private readonly store = new Store<{ bounds?: Rectangle }>({ name: 'window' })

  /// The remembered bounds, unless the file was edited into nonsense or the display they were on is gone.
  restore(): Rectangle | undefined {
    const saved = Bounds.safeParse(this.store.get('bounds'))
    if (!saved.success) return undefined
    return screen.getAllDisplays().some((display) => overlaps(display.workArea, saved.data))
      ? saved.data
      : undefined
  }

  /// Remembers the window's normal bounds when it closes, so a maximized window reopens at its restored size.
  track(window: BrowserWindow): void {
    window.on('close', () => this.store.set('bounds', window.getNormalBounds()))
  }
}

function overlaps(a: Rectangle, b: Rectangle): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}
