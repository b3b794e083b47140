import type { SVGProps } from "react";

/** Icons of the search and booking screens, drawn like those in icons.tsx (24-unit grid, 2-unit stroke). */
type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Icon({ size = 16, children, ...props }: IconProps) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export function IconPlaneDeparture(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2 22h20" />
      <path d="M6.4 17.4 3.2 13.6l2.1-1 2.9 1.4 3.7-1.9L7 5.7l2.3-1.1 7.3 5.2 3.6-1.8a2 2 0 0 1 1.8 3.5L8.8 17.8a2 2 0 0 1-2.4-.4Z" />
    </Icon>
  );
}

export function IconPlaneArrival(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2 22h20" />
      <path d="m3.8 11.6 1-2.3 3 .8 3.2-2.6-2.5-6.1 2.5.4 5.4 7.1 3.9.9a2 2 0 0 1-.9 3.9L5.2 14.4a2 2 0 0 1-1.4-2.8Z" />
    </Icon>
  );
}

export function IconPlane(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M17.8 19.2 16 11l3.5-3.5C21 6 21.5 4 21 3c-1-.5-3 0-4.5 1.5L13 8 4.8 6.2c-.5-.1-.9.1-1.1.5l-.3.5c-.2.5-.1 1 .3 1.3L9 12l-2 3H4l-1 1 3 2 2 3 1-1v-3l3-2 3.5 5.3c.3.4.8.5 1.3.3l.5-.2c.4-.3.6-.7.5-1.2Z" />
    </Icon>
  );
}

export function IconArrowsExchange(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M7 4 3 8l4 4M3 8h14M17 20l4-4-4-4M21 16H7" />
    </Icon>
  );
}

export function IconUsers(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.6a3.5 3.5 0 0 1 0 6.8M18 14.3a6.5 6.5 0 0 1 3.5 5.7" />
    </Icon>
  );
}

export function IconLuggage(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="6" y="6" width="12" height="14" rx="2" />
      <path d="M9 6V3.5h6V6M10 10v6M14 10v6M8 20v1.5M16 20v1.5" />
    </Icon>
  );
}

export function IconBackpack(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 18V10a7 7 0 0 1 14 0v8a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2Z" />
      <path d="M9 20v-5h6v5M10 4.5V3h4v1.5" />
    </Icon>
  );
}

export function IconRefresh(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M20 11A8 8 0 0 0 5.4 6.4L4 8M4 4v4h4M4 13a8 8 0 0 0 14.6 4.6L20 16M20 20v-4h-4" />
    </Icon>
  );
}

export function IconReceiptRefund(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 21V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v16l-3-2-2 2-2-2-2 2-2-2-3 2Z" />
      <path d="M15 14v-2a2 2 0 0 0-2-2H9l2 2M11 8l-2 2" />
    </Icon>
  );
}

export function IconX(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M18 6 6 18M6 6l12 12" />
    </Icon>
  );
}

export function IconMinus(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 12h14" />
    </Icon>
  );
}

export function IconPlus(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M12 5v14M5 12h14" />
    </Icon>
  );
}

export function IconFilter(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 5h16l-6 7.5V19l-4 1.5v-8L4 5Z" />
    </Icon>
  );
}

export function IconClock(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </Icon>
  );
}

export function IconCalendar(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="4" y="5" width="16" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M4 11h16" />
    </Icon>
  );
}

export function IconMessage(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 19.5V6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H7.5L4 19.5Z" />
    </Icon>
  );
}

export function IconPencil(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16v4ZM13.5 6.5l4 4" />
    </Icon>
  );
}

export function IconWallet(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M17 8V5a1 1 0 0 0-1-1H6a2 2 0 0 0 0 4h12a1 1 0 0 1 1 1v3M19 16v3a1 1 0 0 1-1 1H6a2 2 0 0 1-2-2V6" />
      <path d="M20 12v4h-4a2 2 0 0 1 0-4h4Z" />
    </Icon>
  );
}

export function IconBan(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="m5.7 5.7 12.6 12.6" />
    </Icon>
  );
}

export function IconInfo(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 8h.01M11 12h1v4h1" />
    </Icon>
  );
}
