"""The page's tabs: each builds its layout and thin event handlers over the views."""
