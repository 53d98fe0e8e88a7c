export const = 1;
