import { ipcMain } from 'electron'
import { channelOf, OPERATIONS } from '../../shared/api'
import type { Dispatch } from './dispatch'

/// Answers the page's operations, one channel each. The sender's frame URL goes with every call so that only the
/// app's own page is served, never a frame or page it navigated to.
export function registerIpc(dispatch: Dispatch): void {
  for (const operation of OPERATIONS) {
    ipcMain.handle(channelOf(operation), (event, ...args: unknown[]) =>
      dispatch(operation, args, event.senderFrame?.url),
    )
  }
}
