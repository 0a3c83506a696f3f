import Foundation

/// Frees `value` on a thread of its own, while this one goes on. An import's rows are hundreds
/// of thousands of small objects: freeing them took a tenth of the import after its last write,
/// and nothing waits for it (a command that ends meanwhile does not free them at all).
func releaseInBackground<T: Sendable>(_ value: consuming T) {
  let owner = Owner(Unmanaged.passRetained(Box(value)))
  Thread.detachNewThread { owner.box.release() }
}

/// The one reference to the value, handed to the thread that drops it.
private struct Owner<T>: @unchecked Sendable {
  let box: Unmanaged<Box<T>>
  init(_ box: Unmanaged<Box<T>>) { self.box = box }
}

private final class Box<T> {
  let value: T
  init(_ value: consuming T) { self.value = value }
}
