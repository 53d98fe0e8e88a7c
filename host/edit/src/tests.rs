use super::*;

const PATH: &str = "/src/x.rs";

fn edit(old: &str, new: &str) -> Edit {
    Edit {
        old: old.to_owned(),
        new: new.to_owned(),
    }
}

/// Applies and returns the new content as text, panicking on error.
fn apply_ok(original: &str, edits: &[Edit]) -> String {
    let out = apply(original.as_bytes(), edits, PATH).expect("edit should apply");
    String::from_utf8(out.content).expect("output is UTF-8")
}

fn apply_err(original: &str, edits: &[Edit]) -> EditError {
    apply(original.as_bytes(), edits, PATH).expect_err("edit should be rejected")
}

// --- exact matching -------------------------------------------------------

#[test]
fn single_exact_edit() {
    let out = apply(b"fn a() {}\nfn b() {}\n", &[edit("fn b", "fn c")], PATH).unwrap();
    assert_eq!(out.content, b"fn a() {}\nfn c() {}\n");
    assert_eq!(out.applied, 1);
    assert_eq!(out.fuzzy, 0);
}

#[test]
fn multiple_edits_apply_together() {
    let out = apply(
        b"one\ntwo\nthree\nfour\n",
        &[edit("four", "4"), edit("one", "1"), edit("three", "3")],
        PATH,
    )
    .unwrap();
    assert_eq!(out.content, b"1\ntwo\n3\n4\n");
    assert_eq!(out.applied, 3);
    assert_eq!(out.fuzzy, 0);
}

#[test]
fn edits_match_against_the_original_not_sequentially() {
    // Sequential application would let edit 2 match the text edit 1 wrote.
    assert_eq!(
        apply_ok("a b", &[edit("a", "b"), edit("b", "c")]),
        "b c".to_owned()
    );
}

#[test]
fn adjacent_edits_do_not_overlap() {
    assert_eq!(apply_ok("abcd", &[edit("ab", "X"), edit("cd", "Y")]), "XY");
}

#[test]
fn replacement_may_delete_text() {
    assert_eq!(
        apply_ok("keep drop keep", &[edit(" drop", "")]),
        "keep keep"
    );
}

// --- errors ---------------------------------------------------------------

#[test]
fn no_edits_is_an_error() {
    let err = apply_err("x", &[]);
    assert_eq!(err, EditError::NoEdits);
    assert_eq!(
        err.to_string(),
        "no edits given; pass at least one edit with oldText and newText"
    );
}

#[test]
fn empty_old_names_the_edit() {
    let err = apply_err("abc", &[edit("a", "x"), edit("", "y")]);
    assert_eq!(err, EditError::EmptyOld { edit: Some(2) });
    assert_eq!(
        err.to_string(),
        "edit 2: oldText is empty; copy the exact text to replace from the file"
    );
}

#[test]
fn single_edit_messages_omit_the_index() {
    let err = apply_err("abc", &[edit("", "y")]);
    assert_eq!(err, EditError::EmptyOld { edit: None });
    assert!(err.to_string().starts_with("oldText is empty"));
}

#[test]
fn bom_only_old_counts_as_empty() {
    assert_eq!(
        apply_err("abc", &[edit("\u{feff}", "y")]),
        EditError::EmptyOld { edit: None }
    );
}

#[test]
fn ambiguous_match_reports_count() {
    let err = apply_err(
        "x = 1;\nx = 1;\ny = 2;\n",
        &[edit("y", "z"), edit("x = 1;", "x = 3;")],
    );
    assert_eq!(
        err,
        EditError::Ambiguous {
            edit: Some(2),
            count: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "edit 2: found 2 occurrences of oldText; add more context to make it unique"
    );
}

#[test]
fn overlapping_occurrences_are_ambiguous() {
    assert_eq!(
        apply_err("aaa", &[edit("aa", "b")]),
        EditError::Ambiguous {
            edit: None,
            count: 2
        }
    );
}

#[test]
fn not_found() {
    let err = apply_err("hello world", &[edit("goodbye", "hi")]);
    assert_eq!(err, EditError::NotFound { edit: None });
    assert_eq!(
        err.to_string(),
        "oldText not found in the file (not even ignoring whitespace and quote style); \
         re-read the file and copy the text to replace exactly"
    );
}

#[test]
fn whitespace_only_old_that_is_missing_is_not_found() {
    // The fuzzy needle would be empty; it must not match everywhere.
    assert_eq!(
        apply_err("a b", &[edit("\t\t", "x")]),
        EditError::NotFound { edit: None }
    );
}

#[test]
fn whitespace_only_old_can_match_exactly() {
    assert_eq!(apply_ok("a\t\tb", &[edit("\t\t", " ")]), "a b");
}

#[test]
fn overlapping_edits_name_both() {
    let err = apply_err(
        "alpha beta gamma",
        &[
            edit("gamma", "G"),
            edit("alpha beta", "AB"),
            edit("beta gamma", "BG"),
        ],
    );
    assert_eq!(
        err,
        EditError::Overlap {
            first: 2,
            second: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "edit 2 and edit 3 match overlapping text; \
         merge them into one edit or make their oldText not overlap"
    );
}

#[test]
fn same_old_twice_overlaps() {
    assert_eq!(
        apply_err("abc", &[edit("b", "x"), edit("b", "y")]),
        EditError::Overlap {
            first: 1,
            second: 2
        }
    );
}

#[test]
fn identical_old_and_new() {
    let err = apply_err("abc", &[edit("a", "x"), edit("b", "b")]);
    assert_eq!(err, EditError::Identical { edit: Some(2) });
    assert_eq!(
        err.to_string(),
        "edit 2: oldText and newText are identical; nothing would change"
    );
}

#[test]
fn batch_that_changes_nothing() {
    // old differs from new only in whitespace; the fuzzy match finds the
    // file's text and replaces it with the very same bytes.
    let err = apply_err("if  (x)  {}", &[edit("if (x) {}", "if  (x)  {}")]);
    assert_eq!(err, EditError::NoChange);
    assert_eq!(
        err.to_string(),
        "the edits would leave the file unchanged; nothing to apply"
    );
}

#[test]
fn an_error_anywhere_rejects_the_whole_batch() {
    assert_eq!(
        apply_err("a b c", &[edit("a", "1"), edit("b", "2"), edit("zzz", "3")]),
        EditError::NotFound { edit: Some(3) }
    );
}

#[test]
fn non_utf8_is_rejected() {
    let err = apply(b"ok \xff\xfe bad", &[edit("ok", "fine")], PATH).unwrap_err();
    assert_eq!(err, EditError::NotText);
    assert_eq!(
        err.to_string(),
        "file is not UTF-8 text; edit only works on text files"
    );
}

// --- BOM ------------------------------------------------------------------

#[test]
fn bom_is_kept_and_ignored_for_matching() {
    let out = apply(b"\xEF\xBB\xBFfirst line\n", &[edit("first", "1st")], PATH).unwrap();
    assert_eq!(out.content, b"\xEF\xBB\xBF1st line\n");
    assert!(!out.diff.contains('\u{feff}'));
}

#[test]
fn match_at_start_of_bom_file() {
    // Anchored at byte 0 of the text, right after the BOM.
    let out = apply(b"\xEF\xBB\xBFabc", &[edit("\u{feff}ab", "\u{feff}X")], PATH).unwrap();
    assert_eq!(out.content, b"\xEF\xBB\xBFXc");
}

#[test]
fn bom_in_edit_is_stripped_for_file_without_bom() {
    assert_eq!(apply_ok("abc", &[edit("\u{feff}b", "\u{feff}B")]), "aBc");
}

// --- line endings ---------------------------------------------------------

#[test]
fn crlf_file_stays_crlf() {
    let out = apply(
        b"line one\r\nline two\r\nline three\r\n",
        &[edit("one\nline two", "1\nline 2\nline 2b")],
        PATH,
    )
    .unwrap();
    assert_eq!(
        out.content,
        b"line 1\r\nline 2\r\nline 2b\r\nline three\r\n"
    );
    assert_eq!(out.fuzzy, 0);
}

#[test]
fn crlf_in_edit_is_not_doubled() {
    assert_eq!(
        apply_ok("a\r\nb\r\n", &[edit("a\r\nb", "x\r\ny\nz")]),
        "x\r\ny\r\nz\r\n"
    );
}

#[test]
fn lf_file_stays_lf() {
    assert_eq!(
        apply_ok("a\nb\nc\n", &[edit("a\r\nb", "x\r\ny")]),
        "x\ny\nc\n"
    );
}

#[test]
fn mixed_endings_use_edits_as_given() {
    let out = apply(b"a\r\nb\nc\r\n", &[edit("b\nc", "B\nC")], PATH).unwrap();
    assert_eq!(out.content, b"a\r\nB\nC\r\n");
    // Converted to CRLF, the edit would only have matched fuzzily.
    assert_eq!(out.fuzzy, 0);
}

#[test]
fn line_ending_detection() {
    assert_eq!(LineEndings::detect("no newline"), LineEndings::AsGiven);
    assert_eq!(LineEndings::detect("a\nb"), LineEndings::Lf);
    assert_eq!(LineEndings::detect("a\r\nb"), LineEndings::Crlf);
    assert_eq!(LineEndings::detect("a\r\nb\n"), LineEndings::AsGiven);
}

#[test]
fn fuzzy_new_text_on_crlf_file_gets_crlf() {
    let out = apply(
        b"fn f() {\r\n        call();\r\n}\r\n",
        &[edit(
            "fn f() {\n    call();\n}",
            "fn f() {\n    other();\n}",
        )],
        PATH,
    )
    .unwrap();
    assert_eq!(out.content, b"fn f() {\r\n    other();\r\n}\r\n");
    assert_eq!(out.fuzzy, 1);
}

// --- fuzzy fallback -------------------------------------------------------

#[test]
fn fuzzy_different_indentation() {
    let original = "fn main() {\n\tif x {\n\t\ty();\n\t}\n}\n";
    let out = apply(
        original.as_bytes(),
        &[edit(
            "    if x {\n        y();\n    }",
            "if x {\n\t\tz();\n\t}",
        )],
        PATH,
    )
    .unwrap();
    // The match starts at `if`, so the file's leading tab survives.
    assert_eq!(out.content, b"fn main() {\n\tif x {\n\t\tz();\n\t}\n}\n");
    assert_eq!(out.applied, 1);
    assert_eq!(out.fuzzy, 1);
}

#[test]
fn fuzzy_collapsed_and_extra_spaces() {
    assert_eq!(
        apply_ok(
            "let  x =   1;\nlet y=2;",
            &[edit("let x = 1;", "let x = 9;")]
        ),
        "let x = 9;\nlet y=2;"
    );
    assert_eq!(
        apply_ok("call(a,  b)", &[edit("call(a,     b)", "call(b, a)")]),
        "call(b, a)"
    );
}

#[test]
fn fuzzy_curly_quotes_in_file() {
    assert_eq!(
        apply_ok(
            "say(\u{201C}hi\u{201D}); it\u{2019}s",
            &[edit("say(\"hi\"); it's", "say(\"bye\");")]
        ),
        "say(\"bye\");"
    );
}

#[test]
fn fuzzy_curly_quotes_in_old() {
    assert_eq!(
        apply_ok(
            "print('don\\'t'); x = \"q\";",
            &[edit("x = \u{201C}q\u{201D};", "x = \"r\";")]
        ),
        "print('don\\'t'); x = \"r\";"
    );
}

#[test]
fn fuzzy_splice_preserves_surrounding_bytes() {
    let original = "head\r\n\t  a   b  \t\r\ntail";
    let out = apply(original.as_bytes(), &[edit("\n a b \n", "X")], PATH).unwrap();
    // Only "a   b" is replaced; every byte of the whitespace around it stays.
    assert_eq!(out.content, b"head\r\n\t  X  \t\r\ntail");
    assert_eq!(out.fuzzy, 1);
}

#[test]
fn fuzzy_match_ending_in_multibyte_quote() {
    // The range must end after the whole 3-byte quote, not inside it.
    assert_eq!(
        apply_ok("a \u{201C}b\u{201D} c", &[edit("\"b\"", "B")]),
        "a B c"
    );
}

#[test]
fn fuzzy_ambiguity() {
    let err = apply_err(
        "a();\nx  =  1;\nx =\t1;\n",
        &[edit("a();", "b();"), edit("x = 1;", "x = 2;")],
    );
    // Edit 1 matches exactly; edit 2 only matches fuzzily, twice.
    assert_eq!(
        err,
        EditError::FuzzyAmbiguous {
            edit: Some(2),
            count: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "edit 2: oldText has no exact match and 2 whitespace/quote-insensitive matches; \
         add more context to make it unique"
    );
}

#[test]
fn exact_match_wins_over_fuzzy() {
    // "a b" matches exactly once; "a  b" would also match fuzzily.
    let out = apply(b"a  b\na b\n", &[edit("a b", "X")], PATH).unwrap();
    assert_eq!(out.content, b"a  b\nX\n");
    assert_eq!(out.fuzzy, 0);
}

#[test]
fn fuzzy_and_exact_ranges_can_overlap() {
    assert_eq!(
        apply_err("let  x = 1;", &[edit("x = 1", "y"), edit("let x", "var x")]),
        EditError::Overlap {
            first: 1,
            second: 2
        }
    );
}

#[test]
fn fuzzy_normalization_maps_back_to_original_bytes() {
    let n = Normalized::new("a \t\u{201C}b\u{201D}\n");
    assert_eq!(n.text, "a \"b\" ");
    assert_eq!(n.original_range(0..1), 0..1);
    assert_eq!(n.original_range(1..2), 1..3);
    assert_eq!(n.original_range(2..5), 3..10);
    assert_eq!(n.original_range(5..6), 10..11);
}

// --- multibyte text -------------------------------------------------------

#[test]
fn multibyte_text_around_exact_match() {
    assert_eq!(
        apply_ok("héllo wörld 日本\n", &[edit("wörld", "мир")]),
        "héllo мир 日本\n"
    );
}

#[test]
fn multibyte_text_around_fuzzy_match() {
    let original = "日本\n  héllo   wörld  \n語";
    let out = apply(original.as_bytes(), &[edit("héllo wörld", "ça va")], PATH).unwrap();
    assert_eq!(
        String::from_utf8(out.content).unwrap(),
        "日本\n  ça va  \n語"
    );
    assert_eq!(out.fuzzy, 1);
}

#[test]
fn multibyte_overlapping_search_stays_on_char_boundaries() {
    assert_eq!(
        apply_err("日日日", &[edit("日日", "x")]),
        EditError::Ambiguous {
            edit: None,
            count: 2
        }
    );
}

// --- diff -----------------------------------------------------------------

#[test]
fn outcome_diff_shows_changed_lines() {
    let original = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    let out = apply(original.as_bytes(), &[edit("5\n", "five\n")], PATH).unwrap();
    assert_eq!(
        out.diff,
        "--- /src/x.rs\n+++ /src/x.rs\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
    );
}

#[test]
fn unified_diff_separates_distant_hunks() {
    let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
    let new: String = (1..=20)
        .map(|i| match i {
            2 => "two\n".to_owned(),
            19 => "nineteen\n".to_owned(),
            _ => format!("{i}\n"),
        })
        .collect();
    assert_eq!(
        unified_diff(&old, &new, "/f"),
        "--- /f\n+++ /f\n\
         @@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n\
         @@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n"
    );
}

#[test]
fn unified_diff_of_equal_texts_is_empty() {
    assert_eq!(unified_diff("a\n", "a\n", "/f"), "");
}
