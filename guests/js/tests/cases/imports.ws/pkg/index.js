export default "pkg-index";
