//! The error collector: every stage reports into it, and the user sees every error at once.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Collects the `syn::Error`s found while parsing and checking the input.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Option<syn::Error>>,
}

impl Ctxt {
    /// Records an error spanning `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens, message));
    }

    /// Records a `syn::Error` as it is.
    pub fn syn_error(&self, error: syn::Error) {
        let mut errors = self.errors.borrow_mut();
        match errors.as_mut() {
            Some(all) => all.combine(error),
            None => *errors = Some(error),
        }
    }

    /// Every error recorded so far, combined, or `Ok` when there is none.
    pub fn check(self) -> syn::Result<()> {
        match self.errors.into_inner() {
            Some(errors) => Err(errors),
            None => Ok(()),
        }
    }
}
