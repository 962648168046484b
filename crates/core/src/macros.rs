//! Macros shared by every crate of the workspace.

/// Consuming builder setters named like the fields, for the hyperparameter structs of
/// estimators (the house style: `Ridge::default().alpha(0.5).fit_intercept(false)`).
///
/// Inside an `impl` block, list `field: Type` pairs; each becomes
/// `pub fn field(mut self, value: Type) -> Self`. A field without doc comments gets the doc
/// "Sets `field`."; doc comments written before a field replace it.
///
/// ```
/// #[derive(Default)]
/// pub struct Shrink { pub alpha: f64, pub fit_intercept: bool }
///
/// impl Shrink {
///     ndlearn_core::setters! {
///         alpha: f64,
///         /// Sets whether to fit an unpenalised intercept.
///         fit_intercept: bool,
///     }
/// }
///
/// let s = Shrink::default().alpha(0.5).fit_intercept(true);
/// assert_eq!((s.alpha, s.fit_intercept), (0.5, true));
/// ```
#[macro_export]
macro_rules! setters {
    (@one [] $field:ident $ty:ty) => {
        #[doc = concat!("Sets `", stringify!($field), "`.")]
        #[must_use]
        pub fn $field(mut self, value: $ty) -> Self {
            self.$field = value;
            self
        }
    };
    (@one [$(#[$meta:meta])+] $field:ident $ty:ty) => {
        $(#[$meta])+
        #[must_use]
        pub fn $field(mut self, value: $ty) -> Self {
            self.$field = value;
            self
        }
    };
    ($($(#[$meta:meta])* $field:ident : $ty:ty),* $(,)?) => {
        $( $crate::setters!(@one [$(#[$meta])*] $field $ty); )*
    };
}
