import { z } from 'zod'

/// A rectangle of the screen, in Electron's display coordinates.
export interface Area {
  x: number
  y: number
  width: number
  height: number
}

const Bounds = z.object({ x: z.int(), y: z.int(), width: z.int().positive(), height: z.int().positive() })

/// Where the window reopens: its remembered bounds on the display they overlap most, shrunk to that display's
/// work area where larger and moved inside it. Undefined when nothing usable is remembered (a file edited into
/// nonsense) or the display they were on is gone: the window then opens at its first size.
export function placeOnScreen(saved: unknown, workAreas: readonly Area[]): Area | undefined {
  const bounds = Bounds.safeParse(saved)
  if (!bounds.success) return undefined
  const { data } = bounds
  const screen = workAreas
    .map((area) => ({ area, shared: overlap(area, data) }))
    .filter(({ shared }) => shared > 0)
    .sort((a, b) => b.shared - a.shared)[0]?.area
  if (!screen) return undefined
  const width = Math.min(data.width, screen.width)
  const height = Math.min(data.height, screen.height)
  return {
    x: clamp(data.x, screen.x, screen.x + screen.width - width),
    y: clamp(data.y, screen.y, screen.y + screen.height - height),
    width,
    height,
  }
}

const clamp = (value: number, least: number, most: number): number => Math.min(Math.max(value, least), most)

function overlap(a: Area, b: Area): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}
