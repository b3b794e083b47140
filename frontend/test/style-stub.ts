// An imported stylesheet under Jest (jsdom applies no CSS).
export default {};
