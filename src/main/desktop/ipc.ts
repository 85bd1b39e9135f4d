import { ipcMain } from 'electron'
import { channelOf, FILE_OPERATIONS, OPERATIONS_CHANNEL } from '../../shared/api'
import { OPERATIONS } from '../../shared/operations'
import type { Dispatch } from './dispatch'
import type { FileDispatch } from './files'

/// Names the operations to the preload and answers them, one channel each. The sender's frame URL goes with every
/// call so that only the app's own page is served, never a frame or page it navigated to.
export function registerIpc(dispatch: Dispatch): void {
  ipcMain.on(OPERATIONS_CHANNEL, (event) => {
    event.returnValue = OPERATIONS
  })
  for (const operation of OPERATIONS) {
    ipcMain.handle(channelOf(operation), (event, ...args: unknown[]) =>
      dispatch(operation, args, event.senderFrame?.url),
    )
  }
}

/// Answers the page's file operations (open, save, save as through the native dialogs), one channel each.
export function registerFileIpc(dispatch: FileDispatch): void {
  for (const operation of FILE_OPERATIONS) {
    ipcMain.handle(channelOf(operation), (event, ...args: unknown[]) =>
      dispatch(operation, args, event.senderFrame?.url),
    )
  }
}
