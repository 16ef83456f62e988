import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Icon, type IconName } from './Icon';

/** What an IconButton takes besides a button's own attributes; its name and its kind are its own. */
interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label' | 'aria-pressed' | 'children' | 'type'> {
  icon: IconName;
  /**
   * What the button does, for a screen reader (its accessible name) and, when no `title` is given,
   * for the tooltip: an icon alone says nothing to someone who cannot see it, so there is no button
   * without one. Where the button shows text too, the name holds that text (WCAG's label in name).
   */
  label: string;
  /** A button that turns something on and off: announced as pressed and drawn as on while it is. */
  pressed?: boolean;
  iconSize?: number;
  /** Shown after the icon: a count, or a rail's vertical label. */
  children?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * The small borderless button that holds an icon, in headers, rails and rows. Its focus ring is the
 * app's own (`:focus-visible` in theme.css), drawn for the keyboard and not for a click.
 */
export function IconButton({ icon, label, pressed, iconSize, title, className, children, ref, ...button }: IconButtonProps) {
  return (
    <button
      {...button}
      ref={ref}
      type="button"
      className={className ? `ghost icon-button ${className}` : 'ghost icon-button'}
      aria-label={label}
      aria-pressed={pressed}
      title={title ?? label}
    >
      <Icon name={icon} size={iconSize} />
      {children}
    </button>
  );
}
