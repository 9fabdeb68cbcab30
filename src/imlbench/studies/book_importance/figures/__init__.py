"""Figure functions of the book_importance study, one module per part of the book."""
