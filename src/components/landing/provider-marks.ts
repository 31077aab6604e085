/**
 * The identity providers' marks for the sign-in buttons, as inline SVG data so the
 * landing (no framework) and the React sign-in buttons draw the same thing with no
 * extra request. Google's four-colour "G" is shown unaltered on the dark button, as
 * its dark-theme button does; Yandex's "Я" sits white on its red circle. Marks are
 * decorative: the button's text stays its accessible name.
 */
export type MarkShape = {
  d: string;
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
};
export type ProviderMark = { viewBox: string; shapes: readonly MarkShape[] };

export const googleMark: ProviderMark = {
  viewBox: "0 0 48 48",
  shapes: [
    {
      fill: "#EA4335",
      d: "M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z",
    },
    {
      fill: "#4285F4",
      d: "M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z",
    },
    {
      fill: "#FBBC05",
      d: "M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z",
    },
    {
      fill: "#34A853",
      d: "M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z",
    },
  ],
};

export const yandexMark: ProviderMark = {
  viewBox: "0 0 24 24",
  shapes: [
    { fill: "#FC3F1D", d: "M12 0a12 12 0 1 1 0 24 12 12 0 0 1 0-24z" },
    {
      fill: "none",
      stroke: "#FFFFFF",
      strokeWidth: 2.2,
      d: "M14.6 19.2V5h-2.5C9.6 5 8 6.5 8 8.8s1.6 3.9 4.1 3.9h2.5M11.4 12.7 8 19.2",
    },
  ],
};
