// One calendar for billing and the screens that promise its dates (DESIGN §13(c)).
export { addMonths, addMonthsOnDay, dayMs, dayOfMonth } from "../../core/calendar";
