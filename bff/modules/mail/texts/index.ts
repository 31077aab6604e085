import type { Language } from "../../../../core/languages";
import { en } from "./en";
import { kk } from "./kk";
import { ru } from "./ru";
import type { MailTexts } from "./types";
import { zh } from "./zh";

export type { MailTexts } from "./types";

export const mailTexts: Record<Language, MailTexts> = { ru, en, zh, kk };
