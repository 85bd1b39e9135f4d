import { useEffect, useRef, useState } from 'react'

/// A drop-down menu's state: whether it is open, and the element that holds it. When it opens, its first item
/// takes the focus; a press anywhere outside it closes it.
export function useMenu(): {
  open: boolean
  setOpen: (open: boolean) => void
  menu: React.RefObject<HTMLDivElement | null>
} {
  const [open, setOpen] = useState(false)
  const menu = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus()
    const close = (event: MouseEvent): void => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', close)
    return () => document.removeEventListener('mousedown', close)
  }, [open])
  return { open, setOpen, menu }
}
