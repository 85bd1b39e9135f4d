/// Where the engine reads the time. Tests pass their own to move time without sleeping.
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/// A clock that stands still until moved, for tests.
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-01-01T00:00:00.000Z')) {}

  now(): Date {
    return new Date(this.current)
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds)
  }
}
