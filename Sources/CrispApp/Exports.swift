// An app imports CrispApp alone: the vocabulary of its views comes with it — CrispGraphics
// (CGContext, CGPath, CGColor…), CrispUI (View, Label, gestures, Device), CrispWidgets (the
// controls, Theme) and Foundation (CGFloat, CGRect, CGPoint, CGSize on Linux).
@_exported import CrispGraphics
@_exported import CrispUI
@_exported import CrispWidgets
@_exported import Foundation
