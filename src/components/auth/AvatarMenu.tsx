import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { initials, logout, type User } from '../../stores/auth';

/** The signed-in header control: an initials button opening a menu with Dashboard and Log out. */
export default function AvatarMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const fullName = `${user.name.first_name} ${user.name.last_name}`.trim() || user.email;

  const items = () => [...(wrapper.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  function onMenuKey(event: KeyboardEvent) {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      list[(index + step + list.length) % list.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      list[event.key === 'Home' ? 0 : list.length - 1]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  }

  return (
    <div className="avatar-menu" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="avatar-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {/* Initials are decoration; the name comes from hidden text, not aria-label (WCAG 2.5.3). */}
        <span aria-hidden="true">{initials(user)}</span>
        <span className="visually-hidden">Account menu for {fullName}</span>
      </button>
      {open && (
        <div className="avatar-popover">
          <p className="avatar-who">
            <strong>{fullName}</strong>
            <span>{user.email}</span>
          </p>
          <ul role="menu" id={menuId} aria-label="Account" onKeyDown={onMenuKey}>
            <li role="none">
              <a role="menuitem" href="/dashboard/overview">
                Dashboard
              </a>
            </li>
            <li role="none">
              <button
                role="menuitem"
                type="button"
                disabled={leaving}
                onClick={async () => {
                  setLeaving(true);
                  await logout();
                }}
              >
                Log out
              </button>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}
