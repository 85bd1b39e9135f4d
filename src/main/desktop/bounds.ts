import { screen, type BrowserWindow, type Rectangle } from 'electron'
import Store from 'electron-store'
import { placeOnScreen } from './placement'

/// The main window's place on screen, remembered across runs in a small file of its own (window.json in the
/// user-data folder). Nothing else is stored there.
export class WindowBounds {
  private readonly store = new Store<{ bounds?: Rectangle }>({ name: 'window' })

  /// The remembered bounds, fitted to a display that shows them (placement.ts).
  restore(): Rectangle | undefined {
    return placeOnScreen(
      this.store.get('bounds'),
      screen.getAllDisplays().map((display) => display.workArea),
    )
  }

  /// Remembers the window's normal bounds when it closes, so a maximized window reopens at its restored size.
  track(window: BrowserWindow): void {
    window.on('close', () => this.store.set('bounds', window.getNormalBounds()))
  }
}
